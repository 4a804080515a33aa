/**
 * Hub figures on a generated hub (1,000,000 events unless MUSTER_BENCH_EVENTS says otherwise): first timeline page, a filtered page, the fold
 * of a 1,000-event thread, new-row-to-renderer latency through `muster serve` + SSE in Chromium
 * (the pushed event arriving in a dashboard tab, and the row painted in a timeline tab), and the
 * server process's memory.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { createService } from '../src/core/root'
import { generateBenchHub } from '../src/core/hub/store/bench-data'
import { foldThread } from '../src/core/hub/folds/thread'
import type { HubEvent } from '../src/core/hub/store/writer'
import { eventCount, median, percentile, type Figure } from './report'

/** Times `fn` `n` times; returns every duration in ms. */
async function timeIt(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await fn()
    out.push(performance.now() - t)
  }
  return out
}

/** Query figures through the service (the same path the UI's calls take, minus the transport). */
export async function hubQueryFigures(work: string, home: string, count: number): Promise<{ figures: Figure[]; palace: string }> {
  const palace = join(work, 'bighub')
  const t0 = performance.now()
  const bench = generateBenchHub(palace, count)
  const genMs = performance.now() - t0
  const service = await createService({ home, transport: 'http', watch: false })
  await service.call('hubs.add', { palace, name: 'big' })
  const first = await timeIt(1, () => service.call('hub.list', { hub: 'big', order: 'desc', limit: 100, preview: true }))
  const pages = await timeIt(20, () => service.call('hub.list', { hub: 'big', order: 'desc', limit: 100, preview: true }))
  const filtered = await timeIt(20, () =>
    service.call('hub.list', { hub: 'big', order: 'desc', limit: 100, preview: true, to_agent: 'win-codex', type: 'task.request' })
  )
  const thread = await timeIt(10, () => service.call('hub.thread', { hub: 'big', correlation_id: bench.bigThread }))
  const { events } = await service.call('hub.thread', { hub: 'big', correlation_id: bench.bigThread })
  const foldOnly = await timeIt(20, async () => foldThread(bench.bigThread, events as unknown as HubEvent[]))
  await service.close()
  const note = `${count.toLocaleString('en')} events, generated in ${(genMs / 1000).toFixed(1)} s`
  return {
    palace,
    figures: [
      { name: 'timeline: first page (100, newest first), cold', value: first[0]!, unit: 'ms', budget: 50, note },
      { name: 'timeline: page (100, newest first), median of 20', value: median(pages), runs: pages, unit: 'ms', budget: 50 },
      {
        name: 'timeline: filtered page (to_agent + type), median of 20',
        value: median(filtered),
        runs: filtered,
        unit: 'ms',
        budget: 50
      },
      {
        name: `thread fold of ${events.length} events: read + fold, median of 10`,
        value: median(thread),
        runs: thread,
        unit: 'ms',
        budget: 20
      },
      {
        name: `thread fold of ${events.length} events: fold only, median of 20`,
        value: median(foldOnly),
        runs: foldOnly,
        unit: 'ms',
        budget: 20
      }
    ]
  }
}

/** Spawns `muster serve` on `home`; resolves with the tokened URL, its pid and a stop function. */
export function serve(bin: string, home: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const proc = spawn(process.execPath, [bin, 'serve', '--home', home, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /"url":\s*"([^"]+)"/.exec(out)
      if (m) resolve({ url: m[1]!, pid: proc.pid!, stop: () => proc.kill('SIGTERM') })
    })
    proc.once('exit', (code) => reject(new Error(`muster serve exited with ${code}`)))
  })
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN)
  return kb / 1024
}

/** Latency from another process's COMMIT to the event arriving in the dashboard page, and RSS. */
export async function hubLiveFigures(root: string, home: string, palace: string, count: number): Promise<Figure[]> {
  const server = await serve(join(root, 'bin', 'muster.cjs'), home)
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking']
  })
  try {
    const page = await browser.newPage()
    await page.goto(server.url)
    await page.evaluate(() => {
      const w = globalThis as unknown as { __arrivals: Record<string, number> }
      w.__arrivals = {}
      const es = new EventSource('/api/events')
      es.addEventListener('hub.events', (e) => {
        const now = Date.now()
        for (const ev of JSON.parse((e as MessageEvent).data).events as { id: string }[]) w.__arrivals[ev.id] = now
      })
      return new Promise((r) => es.addEventListener('open', r))
    })
    // A second tab on the big hub's timeline: when each new row is painted there (the frame after
    // its row element is added), beside when its pushed event arrived in the first tab.
    const timeline = await browser.newPage()
    await timeline.goto(`${server.url}#/timeline?hub=big`)
    await timeline.waitForSelector('[data-testid^="timeline-row-"]')
    await timeline.evaluate(() => {
      // the page's DOM, typed here (the bench compiles without the DOM library)
      type Added = { dataset?: { testid?: string } }
      const w = globalThis as unknown as {
        __painted: Record<string, number>
        document: { body: unknown }
        requestAnimationFrame(cb: () => void): number
        MutationObserver: new (cb: (records: { addedNodes: Iterable<Added> }[]) => void) => {
          observe(target: unknown, opts: { childList: boolean; subtree: boolean }): void
        }
      }
      w.__painted = {}
      new w.MutationObserver((records) => {
        const ids: string[] = []
        for (const r of records)
          for (const n of r.addedNodes) {
            const id = n.dataset?.testid
            if (id?.startsWith('timeline-row-')) ids.push(id.slice('timeline-row-'.length))
          }
        if (ids.length) w.requestAnimationFrame(() => ids.forEach((id) => (w.__painted[id] ??= Date.now())))
      }).observe(w.document.body, { childList: true, subtree: true })
    })
    // Load the big hub into the server the way the UI does.
    await page.evaluate(async () => {
      const call = (m: string, body: unknown) =>
        fetch(`/api/call/${m}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      await call('hub.list', { hub: 'big', order: 'desc', limit: 100, preview: true })
      await call('hub.overview', {})
    })
    const writes = await new Promise<[string, number][]>((resolve, reject) => {
      const py = spawn('python3', [join(root, 'bench', 'hub_latency_writer.py'), palace, '40', '120'], {
        stdio: ['ignore', 'pipe', 'inherit']
      })
      let out = ''
      py.stdout.on('data', (d: Buffer) => (out += d.toString()))
      py.once('exit', (code) =>
        code === 0
          ? resolve(
              out
                .trim()
                .split('\n')
                .map((l) => l.split(' ') as [string, string])
                .map(([id, ms]) => [id, Number(ms)])
            )
          : reject(new Error(`writer exited ${code}`))
      )
    })
    await page.waitForTimeout(1000)
    const arrivals = await page.evaluate(() => (globalThis as unknown as { __arrivals: Record<string, number> }).__arrivals)
    const latencies = writes.map(([id, at]) => (arrivals[id] ?? Infinity) - at)
    const painted = await timeline.evaluate(() => (globalThis as unknown as { __painted: Record<string, number> }).__painted)
    const toPaint = writes.map(([id, at]) => (painted[id] ?? Infinity) - at)
    const rss = rssMb(server.pid)
    return [
      {
        name: 'new row (another process) -> dashboard page via SSE, p95 of 40',
        value: percentile(latencies, 95),
        runs: latencies,
        unit: 'ms',
        budget: 250,
        note: `median ${median(latencies).toFixed(0)} ms`
      },
      {
        name: 'new row (another process) -> painted in the timeline tab, p95 of 40',
        value: percentile(toPaint, 95),
        runs: toPaint,
        unit: 'ms',
        budget: 250,
        note: `median ${median(toPaint).toFixed(0)} ms`
      },
      { name: `server process memory (RSS) with the ${eventCount(count)}-event hub open`, value: rss, unit: 'MB', budget: 300 }
    ]
  } finally {
    await browser.close()
    server.stop()
  }
}
