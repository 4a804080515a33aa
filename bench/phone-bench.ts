/**
 * Phone figures (issue 35): a phone-class device (Chromium's CPU throttled 4x through CDP
 * `Emulation.setCPUThrottlingRate`, a 390 px touch viewport) opening `muster serve` on the demo
 * fleet with an empty cache:
 * - navigation to the needs-you queue painted (the frame after its first row is in the page);
 * - the first JavaScript chunk it loads (the page's module script), with every script fetched
 *   before the queue painted in the note.
 */
import { chromium } from '@playwright/test'
import { serve } from './hub-bench'
import { median, type Figure } from './report'

/** Cold loads measured. */
const RUNS = 7
/** The CPU slow-down of a phone-class device. */
const THROTTLE = 4

/** The few DOM names the in-page measurement uses (the bench compiles without the DOM library). */
interface PageGlobals {
  document: { querySelector(sel: string): unknown }
  MutationObserver: new (cb: () => void) => { observe(target: unknown, opts: Record<string, boolean>): void; disconnect(): void }
  requestAnimationFrame(cb: () => void): void
  __queuePainted?: number
}

/** Installed before the page's own scripts: the time (since navigation) of the frame after the first queue row. */
function watchQueue(): void {
  const g = globalThis as unknown as PageGlobals
  const obs = new g.MutationObserver(() => {
    if (!g.document.querySelector('[data-testid="screen-needs"] [data-testid="need-item"]')) return
    obs.disconnect()
    g.requestAnimationFrame(() => setTimeout(() => (g.__queuePainted = performance.now()), 0))
  })
  obs.observe(g.document, { childList: true, subtree: true })
}

/** One script the page fetched: its file, bytes (decoded) and when it arrived (ms since navigation). */
interface Script {
  name: string
  bytes: number
  end: number
}

/** The phone figures against `muster serve` on `home` (a home with the demo fleet). */
export async function phoneFigures(bin: string, home: string): Promise<Figure[]> {
  const server = await serve(bin, home)
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking']
  })
  const paints: number[] = []
  let entry = 0
  let before: Script[] = []
  try {
    // a first load warms the server (its reads of the demo fleet), as an operator's phone finds it
    for (let run = -1; run < RUNS; run++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true
      })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE })
      await page.addInitScript(watchQueue)
      await page.goto(server.url)
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__queuePainted !== undefined, null, { timeout: 60_000 })
      const seen = await page.evaluate(() => {
        const g = globalThis as unknown as {
          __queuePainted: number
          document: { querySelector(sel: string): { src: string } | null }
          performance: { getEntriesByType(t: string): { name: string; decodedBodySize: number; responseEnd: number }[] }
        }
        const scripts = g.performance
          .getEntriesByType('resource')
          .filter((r) => r.name.endsWith('.js'))
          .map((r) => ({ name: new URL(r.name).pathname, bytes: r.decodedBodySize, end: r.responseEnd }))
        return { painted: g.__queuePainted, entry: new URL(g.document.querySelector('script[type="module"]')!.src).pathname, scripts }
      })
      if (run >= 0) paints.push(seen.painted)
      before = seen.scripts.filter((s) => s.end <= seen.painted)
      entry = seen.scripts.find((s) => s.name === seen.entry)?.bytes ?? NaN
      await context.close()
    }
  } finally {
    await browser.close()
    server.stop()
  }
  const kb = (b: number): number => b / 1000
  const total = before.reduce((n, s) => n + s.bytes, 0)
  const largest = [...before].sort((a, b) => b.bytes - a.bytes).slice(0, 3)
  return [
    {
      name: `phone (390 px, CPU ${THROTTLE}x slower): navigation to the needs-you queue painted, cold cache, median of ${RUNS}`,
      value: median(paints),
      runs: paints,
      unit: 'ms',
      budget: 1500,
      note: 'demo fleet, Chromium via muster serve'
    },
    {
      name: 'phone: first JavaScript chunk (the page’s module script), minified',
      value: kb(entry),
      unit: 'KB',
      budget: 250,
      note: `${before.length} scripts, ${kb(total).toFixed(0)} KB in all before the queue painted (largest: ${largest
        .map((s) => `${s.name.replace(/^.*\//, '')} ${kb(s.bytes).toFixed(0)} KB`)
        .join(', ')})`
    }
  ]
}
