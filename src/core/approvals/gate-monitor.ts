/**
 * Keeps the gates' health for the app and `muster serve`: checked at start (a little after, so the
 * first screens are served first), then every few minutes and on demand, off the main thread (a
 * worker thread running `gate-health-worker`, when the bundle has one; in the process otherwise,
 * where every wait is asynchronous), and cached in memory and in `<home>/gates-health.json`, so
 * reading it (the Overview's panel, the needs-you queue) costs a file read at most.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { GateHealth, GatesReport } from '../../shared/contract/gates-types'
import type { RegisteredHubs } from '../hub'
import { makeDirSync } from '../make-dir'
import { checkGates, type GateHealthOptions } from './gate-health'

/** The cached report in a home. */
export const GATES_HEALTH_FILE = 'gates-health.json'
/** Checked this long after a watching service starts, then this often. */
export const GATES_FIRST_MS = 10_000
export const GATES_EVERY_MS = 5 * 60_000

/** What the monitor checks with. */
export interface GateMonitorOptions extends Omit<GateHealthOptions, 'registry' | 'previous' | 'now'> {
  /** The home's hub registry (for a check in the process). */
  registry(): RegisteredHubs | null
  /** The built worker file, or null to check in the process. */
  worker: string | null
}

/** What the worker is handed, and answers. */
export type GateWorkerInput = Omit<GateHealthOptions, 'registry' | 'now'>
export type GateWorkerOutput = { gates: GateHealth[] } | { error: string }

/** The report last written to a home, or an empty one. */
export function readGatesReport(home: string): GatesReport {
  const file = join(home, GATES_HEALTH_FILE)
  try {
    if (existsSync(file)) {
      const r = JSON.parse(readFileSync(file, 'utf8')) as GatesReport
      if (Array.isArray(r.gates)) return { gates: r.gates, at: r.at ?? null, checking: false }
    }
  } catch {
    // torn or foreign: checked again soon
  }
  return { gates: [], at: null, checking: false }
}

/** Writes a report to the home (through a rename: readers never see half of it). */
export function writeGatesReport(home: string, report: GatesReport): void {
  makeDirSync(home)
  const file = join(home, GATES_HEALTH_FILE)
  const tmp = `${file}.${process.pid}.muster.tmp`
  writeFileSync(tmp, JSON.stringify({ gates: report.gates, at: report.at }) + '\n')
  renameSync(tmp, file)
}

/** The gates' health of one home, checked off the main thread and cached. */
export class GateMonitor {
  private current: GatesReport
  private running: Promise<GatesReport> | null = null
  private timers: ReturnType<typeof setTimeout>[] = []
  private closed = false
  private listeners: ((report: GatesReport) => void)[] = []

  constructor(private readonly o: GateMonitorOptions) {
    this.current = readGatesReport(o.home)
  }

  /** The last report (a check running is said, not waited for). */
  report(): GatesReport {
    return { ...this.current, checking: this.running !== null }
  }

  /** Checks the gates of one settings file now (install), without touching the cached report. */
  checkFile(file: string): Promise<GateHealth[]> {
    const { home, userHome, env, cwd } = this.o
    return checkGates({ home, userHome, env, cwd, file, previous: this.current.gates, registry: this.o.registry() })
  }

  /** Checks every gate now (one check at a time: a second caller gets the running one). */
  check(): Promise<GatesReport> {
    this.running ??= this.run().finally(() => (this.running = null))
    return this.running
  }

  /** Tells `listener` of each check whose report differs from the one before. */
  onChange(listener: (report: GatesReport) => void): void {
    this.listeners.push(listener)
  }

  /** Checks at start and then periodically (a watching service). */
  start(): void {
    const first = setTimeout(() => {
      void this.check().catch(() => {})
      const every = setInterval(() => void this.check().catch(() => {}), GATES_EVERY_MS)
      every.unref?.()
      this.timers.push(every)
    }, GATES_FIRST_MS)
    first.unref?.()
    this.timers.push(first)
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
  }

  private async run(): Promise<GatesReport> {
    const previous = this.current.gates
    const { home, userHome, env, cwd } = this.o
    const gates = this.o.worker
      ? await inWorker(this.o.worker, { home, userHome, env, cwd, previous })
      : await checkGates({ home, userHome, env, cwd, previous, registry: this.o.registry() })
    const report: GatesReport = { gates, at: new Date().toISOString(), checking: false }
    if (this.closed) return report
    const changed = JSON.stringify(gates) !== JSON.stringify(previous)
    this.current = report
    try {
      writeGatesReport(home, report)
    } catch {
      // an unwritable home: the report stays in memory
    }
    if (changed) for (const l of this.listeners) l(report)
    return report
  }
}

/** Runs one check in a worker thread. */
function inWorker(script: string, input: GateWorkerInput): Promise<GateHealth[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: input })
    w.once('message', (out: GateWorkerOutput) => {
      void w.terminate()
      if ('error' in out) reject(new Error(out.error))
      else resolve(out.gates)
    })
    w.once('error', reject)
    w.once('exit', (code) => code !== 0 && reject(new Error(`the gate health worker ended with code ${code}`)))
  })
}
