/**
 * Role files read and digested on worker threads: a fleet scan that finds many files not in the
 * parse cache (the first start, a new fleet) spreads them over the machine's cores instead of
 * parsing them one after another on the main thread, whose event loop then stays free. Few files
 * are not worth a worker: the scan digests them itself (`fleet-scan.ts`).
 *
 * The worker is a built file (`digest-worker.ts`, an entry of each bundle); running from source
 * (tests), there is none and `builtDigestPool` gives null. Workers start on first use, hold the
 * process only while they have work, and stop after a while without any.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { DigestReply, DigestRequest } from './digest-protocol'

/** Files per message: large enough to amortise a message, small enough to balance the workers. */
const BATCH = 16
/**
 * Batches sent to a worker ahead of its replies: with one, a worker idles for each round trip
 * to the main thread (which on a busy machine waits for a core); with two, the next batch is
 * already queued when a reply leaves.
 */
const IN_FLIGHT = 2
/** Workers stop after this long without work. */
const IDLE_STOP_MS = 15_000

/** The error of digests cut short by `DigestPool.stop` (the process is stopping: nobody needs them). */
export class DigestStopped extends Error {
  constructor() {
    super('the digest workers were stopped')
    this.name = 'DigestStopped'
  }
}

/** One file's outcome, as the worker reports it. */
export type DigestResult = DigestReply['results'][number]

interface Slot {
  worker: Worker
  ready: boolean
  /** Batches sent and not answered yet, oldest first (a worker answers in order). */
  jobs: { req: DigestRequest; resolve: (r: DigestResult[]) => void; reject: (e: Error) => void }[]
}

/** A pool of digest workers running `script` (a built `digest-worker` file). */
export class DigestPool {
  /** Files digested on the workers since creation (tests and the bench). */
  digested = 0
  private slots: Slot[] = []
  private nextId = 1
  private idle: NodeJS.Timeout | null = null
  /** The last call's end: one call at a time owns the workers. */
  private turn: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly script: string,
    private readonly size = Math.max(1, Math.min(4, availableParallelism()))
  ) {}

  /**
   * Reads and digests every file on the workers (`stat`: with each file's stamp fields, taken as
   * it is read); rejects when a worker cannot run (then nothing is half-reported). Calls take turns.
   */
  digestAll(items: { path: string; file: string }[], opts: { stat?: boolean } = {}): Promise<DigestResult[]> {
    const turn = this.turn.then(() => this.digestNow(items, opts.stat ?? false))
    this.turn = turn.catch(() => undefined)
    return turn
  }

  private async digestNow(items: { path: string; file: string }[], stat: boolean): Promise<DigestResult[]> {
    if (this.idle) clearTimeout(this.idle)
    const batches: { path: string; file: string }[][] = []
    for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH))
    const out: DigestResult[][] = new Array(batches.length)
    let next = 0
    const slots = this.start(Math.min(this.size, batches.length))
    try {
      // IN_FLIGHT loops per worker, each taking the next batch when its last one is answered
      await Promise.all(
        slots.flatMap((slot) =>
          Array.from({ length: IN_FLIGHT }, async () => {
            for (let b = next++; b < batches.length; b = next++) out[b] = await this.run(slot, batches[b]!, stat)
          })
        )
      )
    } finally {
      for (const s of this.slots) s.worker.unref()
      this.idle = setTimeout(() => void this.close(), IDLE_STOP_MS)
      this.idle.unref()
    }
    this.digested += items.length
    return out.flat()
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    const slots = this.slots
    this.slots = []
    await Promise.all(slots.map((s) => s.worker.terminate()))
  }

  /**
   * Stops every worker now, work in progress too (a stopping process must not wait for a 100 MB
   * file's digest): the files they were digesting fail with `DigestStopped`, and the caller does
   * not digest them itself. A later call starts new workers.
   */
  async stop(): Promise<void> {
    const slots = this.slots
    this.slots = []
    for (const s of slots) {
      s.ready = false
      for (const job of s.jobs.splice(0)) job.reject(new DigestStopped())
    }
    await Promise.all(slots.map((s) => s.worker.terminate()))
  }

  private start(n: number): Slot[] {
    while (this.slots.length < n) {
      const slot: Slot = { worker: new Worker(this.script), ready: true, jobs: [] }
      slot.worker.on('message', (reply: DigestReply) => {
        const job = slot.jobs.shift()
        if (job && reply.id === job.req.id) job.resolve(reply.results)
        else job?.reject(new Error('digest worker answered out of turn'))
      })
      const fail = (err: Error) => {
        if (!slot.ready) return // stopped on purpose: its jobs were told
        slot.ready = false
        this.slots = this.slots.filter((s) => s !== slot)
        for (const job of slot.jobs.splice(0)) job.reject(err)
      }
      slot.worker.on('error', fail)
      slot.worker.on('exit', (code) => fail(new Error(`digest worker exited with ${code}`)))
      this.slots.push(slot)
    }
    for (const s of this.slots) s.worker.ref()
    return this.slots.slice(0, n)
  }

  private run(slot: Slot, items: { path: string; file: string }[], stat: boolean): Promise<DigestResult[]> {
    if (!slot.ready) return Promise.reject(new Error('digest worker stopped'))
    return new Promise((resolve, reject) => {
      const req: DigestRequest = { id: this.nextId++, items, ...(stat ? { stat } : {}) }
      slot.jobs.push({ req, resolve, reject })
      slot.worker.postMessage(req)
    })
  }
}

let built: DigestPool | null | undefined

/**
 * The process's pool, on the `digest-worker` file built beside this module's bundle; null when
 * there is none (running from source) or with MUSTER_DIGEST_WORKERS=0.
 */
export function builtDigestPool(): DigestPool | null {
  if (built !== undefined) return built
  built = null
  if (process.env.MUSTER_DIGEST_WORKERS === '0') return built
  for (const name of ['digest-worker.mjs', 'digest-worker.js']) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url))
    if (existsSync(path)) return (built = new DigestPool(path))
  }
  return built
}
