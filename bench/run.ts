/**
 * `npm run bench`: measures Muster against the budgets of spec/PRODUCT.md and prints each figure
 * beside its budget. A benchmark, not a test: it scales the data, reports, and exits non-zero only
 * when it could not measure (a figure over budget is reported as OVER).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { chromium } from '@playwright/test'
import { createService } from '../src/core/root'
import { approvalsFigures } from './approvals-bench'
import { bigFileFigures } from './big-file-bench'
import { cliStartFigures } from './cli-bench'
import { diffViewFigures } from './diff-view/diff-bench'
import { hubLiveFigures, hubQueryFigures } from './hub-bench'
import { hubLockFigures } from './hub-lock-bench'
import { fleetFigures, memoryFigures } from './muse-bench'
import { machineBaselineMs, median, printReport, type Figure } from './report'
import { patchFigures } from './patch-bench'
import { phoneFigures } from './phone-bench'
import { gatesFigures } from './gates-bench'
import { presenceFigures } from './presence-bench'
import { receiptHookFigures, sessionHookFigures } from './session-hook-bench'
import { safeWriteFigures } from './write-bench'
import { usageFigures } from './usage-bench'
import { faultsFigures } from './faults-bench'

/** The repository root: the nearest folder above this file holding package.json (works bundled too). */
function repoRoot(): string {
  let dir = import.meta.dirname
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('package.json not found above the bench script')
    dir = up
  }
  return dir
}

const ROOT = repoRoot()
const BIN = join(ROOT, 'bin', 'muster.cjs')

/** Spawns `muster serve` and resolves with the tokened URL. */
function serve(home: string): Promise<{ url: string; stop: () => void }> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--home', home, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolveUrl, reject) => {
    let out = ''
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /"url":\s*"([^"]+)"/.exec(out)
      if (m) resolveUrl({ url: m[1]!, stop: () => proc.kill('SIGTERM') })
    })
    proc.once('exit', (code) => reject(new Error(`muster serve exited with ${code}`)))
  })
}

/** A home with the demo fleet (made once per run); with how long demo.create held the event loop at most, and took. */
let demoHome: Promise<{ home: string; stall: number; ms: number }> | null = null
function demoFleet(work: string): Promise<{ home: string; stall: number; ms: number }> {
  demoHome ??= (async () => {
    const home = join(work, 'home-demo')
    const service = await createService({ home, transport: 'http', watch: false })
    // demo.create is served over HTTP: it must leave the event loop free (the hub is written in slices)
    let last = performance.now()
    let stall = 0
    const ticks = setInterval(() => {
      stall = Math.max(stall, performance.now() - last)
      last = performance.now()
    }, 5)
    const started = performance.now()
    await service.call('demo.create', { dir: join(work, 'demo') })
    stall = Math.max(stall, performance.now() - last)
    const ms = performance.now() - started
    clearInterval(ticks)
    await service.close()
    return { home, stall, ms }
  })()
  return demoHome
}

/** In the page, before its scripts: the wall-clock time of the frame after the first project card. */
function watchCards(): void {
  const g = globalThis as unknown as {
    document: { querySelector(sel: string): unknown }
    MutationObserver: new (cb: () => void) => { observe(target: unknown, opts: Record<string, boolean>): void; disconnect(): void }
    requestAnimationFrame(cb: () => void): void
    __cardsPainted?: number
  }
  const obs = new g.MutationObserver(() => {
    if (!g.document.querySelector('[data-testid^="project-card-"]')) return
    obs.disconnect()
    g.requestAnimationFrame(() => setTimeout(() => (g.__cardsPainted = Date.now()), 0))
  })
  obs.observe(g.document, { childList: true, subtree: true })
}

async function serveFirstPaint(work: string): Promise<Figure[]> {
  const demo = await demoFleet(work)
  const browser = await chromium.launch({
    executablePath: process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking']
  })
  const toCards: number[] = []
  try {
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
      await page.addInitScript(watchCards)
      const t0 = Date.now()
      const server = await serve(demo.home)
      await page.goto(server.url)
      const painted = await page.waitForFunction(() => (globalThis as unknown as { __cardsPainted?: number }).__cardsPainted)
      toCards.push(((await painted.jsonValue()) as number) - t0)
      await page.close()
      server.stop()
    }
  } finally {
    await browser.close()
  }
  return [
    {
      name: 'muster serve: process start to first dashboard paint with project cards (desktop)',
      value: median(toCards),
      runs: toCards,
      unit: 'ms',
      budget: 1000,
      note: 'median of 5, demo fleet, the frame after the first card'
    },
    {
      name: 'demo.create: longest event-loop stall',
      value: demo.stall,
      unit: 'ms',
      budget: 250,
      note: `one build of ${Math.round(demo.ms)} ms`
    }
  ]
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'muster-bench-'))
  try {
    const baseline = machineBaselineMs()
    const events = Number(process.env.MUSTER_BENCH_EVENTS ?? 1_000_000)
    const groups: [string, () => Promise<Figure[]>][] = [
      ['cli', async () => cliStartFigures(BIN)],
      ['big-file', async () => bigFileFigures()],
      ['fleet', () => fleetFigures(work, BIN)],
      ['memory', () => memoryFigures(work)],
      ['serve', () => serveFirstPaint(work)],
      ['phone', async () => phoneFigures(BIN, (await demoFleet(work)).home)],
      ['write', () => safeWriteFigures(work, ROOT)],
      ['patch', () => patchFigures(work, BIN)],
      ['approvals', () => approvalsFigures(ROOT, work)],
      ['session-hook', () => sessionHookFigures(ROOT, work)],
      ['receipt-hook', () => receiptHookFigures(ROOT, work)],
      ['gates', () => gatesFigures(ROOT, work)],
      ['presence', () => presenceFigures()],
      [
        'hub',
        async () => {
          const hubHome = join(work, 'home-hub')
          const hub = await hubQueryFigures(work, hubHome, events)
          return [
            ...hub.figures,
            ...(await hubLiveFigures(ROOT, hubHome, hub.palace, events)),
            ...(await hubLockFigures(ROOT, hubHome, 'big', hub.palace))
          ]
        }
      ],
      ['diff-view', () => diffViewFigures(ROOT)],
      ['usage', () => usageFigures(work)],
      ['faults', () => faultsFigures(BIN, work)]
    ]
    // MUSTER_BENCH_ONLY=fleet,patch measures those groups only (while working on one figure)
    const only = process.env.MUSTER_BENCH_ONLY?.split(',').map((g) => g.trim())
    const unknown = only?.filter((g) => !groups.some(([name]) => name === g)) ?? []
    if (unknown.length)
      throw new Error(`MUSTER_BENCH_ONLY: unknown group ${unknown.join(', ')} (groups: ${groups.map(([name]) => name).join(', ')})`)
    const figures: Figure[] = []
    for (const [name, measure] of groups) if (!only || only.includes(name)) figures.push(...(await measure()))
    printReport(figures, baseline)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.stack : String(err)}`)
  process.exitCode = 1
})
