/**
 * Measures a diff renderer page in Chromium: bundles the page with esbuild, mounts the generated
 * 5,000-line patch, and reports time to first screen, blank rows while scrolling, bundle size and
 * whether CRLF lines keep their carriage return visibly.
 */
import { build } from 'esbuild'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser } from '@playwright/test'

/** One renderer's figures. */
export interface DiffFigures {
  name: string
  firstScreenMs: number[]
  blankRows: number
  jsGzipKb: number
  crlfVisible: boolean
}

/** Bundles `entry` (a page that defines window.mountDiff) into a folder with an index.html. */
export async function bundlePage(entry: string): Promise<{ dir: string; jsGzipKb: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'muster-diff-bench-'))
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    outdir: dir,
    jsx: 'automatic',
    loader: { '.css': 'css' },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning'
  })
  const files = readdirSync(dir)
  const js = files.find((f) => f.endsWith('.js'))!
  const css = files.find((f) => f.endsWith('.css'))
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8">${css ? `<link rel="stylesheet" href="${css}">` : ''}<style>body{margin:0}</style></head><body><div id="root"></div><script src="${js}"></script></body></html>`
  )
  const gz = files.filter((f) => /\.(js|css)$/.test(f)).reduce((n, f) => n + gzipSync(readFileSync(join(dir, f))).length, 0)
  return { dir, jsGzipKb: Math.round(gz / 1024) }
}

/** Counts sample points of the scroller's viewport not covered by a rendered diff row. */
const COUNT_BLANK = `(sel) => {
  const s = document.querySelector(sel); const r = s.getBoundingClientRect(); let blank = 0
  for (let y = r.top + 40; y < r.bottom - 10; y += 18) {
    const el = document.elementFromPoint(r.left + r.width / 2, y)
    if (!el || el === s || el === document.body || !(el.closest('tr, [data-line], h3, [data-diff-row]'))) blank++
  }
  return blank
}`

/** Mounts `patch` on the bundled page 5 times and takes the figures. */
export async function measurePage(
  browser: Browser,
  name: string,
  dir: string,
  jsGzipKb: number,
  patch: string,
  rowSelector: string,
  scroller = '#scroller'
): Promise<DiffFigures> {
  const firstScreenMs: number[] = []
  let blankRows = 0
  let crlfVisible = false
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto('file://' + join(dir, 'index.html'))
    await page.waitForFunction("'mountDiff' in window")
    // browser-side code as strings: this file is type-checked for Node, without the DOM library
    const ms = (await page.evaluate(`(async () => {
      const t0 = performance.now()
      window.mountDiff(${JSON.stringify(patch)})
      while (!document.querySelector(${JSON.stringify(rowSelector)})) await new Promise((r) => setTimeout(r, 0))
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      return performance.now() - t0
    })()`)) as number
    firstScreenMs.push(ms)
    if (i === 0) {
      await page.waitForTimeout(1500) // lets progressive rendering finish before the scroll check
      for (const frac of [0.1, 0.3, 0.5, 0.7, 0.95]) {
        await page.evaluate(
          `(() => { const el = document.querySelector(${JSON.stringify(scroller)}); el.scrollTop = (el.scrollHeight - el.clientHeight) * ${frac} })()`
        )
        await page.evaluate('new Promise((r) => requestAnimationFrame(() => r(null)))')
        blankRows += (await page.evaluate(`(${COUNT_BLANK})(${JSON.stringify(scroller)})`)) as number
      }
      crlfVisible = (await page.evaluate("document.body.innerText.includes('\u21b5')")) as boolean
    }
    await page.close()
  }
  return { name, firstScreenMs, blankRows, jsGzipKb, crlfVisible }
}

/** Removes a bundled page folder. */
export function dropPage(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
