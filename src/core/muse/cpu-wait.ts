/**
 * How long a runnable process currently waits for a CPU on this machine: a worker thread sleeps
 * 5 ms at a time and records how late it wakes. That lateness is what an agent process suffers
 * between two system calls under load, and, being measured on its own thread, it is not inflated
 * by work on the caller's event loop. The worker runs only while edits ask (it stops after 10 s
 * without a question) and never keeps the process alive.
 */
import { Worker } from 'node:worker_threads'

/** The worst lateness counts for this long (load comes and goes). */
const MEMORY_MS = 3000
/** The worker stops after this long without a call to `cpuWaitMs`. */
const IDLE_STOP_MS = 10_000

const WORKER = `
const { workerData } = require('node:worker_threads')
const shared = new Int32Array(workerData)
const seen = []
const tick = () => {
  const t = performance.now()
  setTimeout(() => {
    const now = performance.now()
    seen.push([now, Math.max(0, now - t - 5)])
    while (seen.length && now - seen[0][0] > ${MEMORY_MS}) seen.shift()
    let worst = 0
    for (const s of seen) worst = Math.max(worst, s[1])
    Atomics.store(shared, 0, Math.round(worst * 1000))
    tick()
  }, 5)
}
tick()
`

let worker: Worker | null = null
let shared: Int32Array | null = null
let idle: NodeJS.Timeout | null = null

/** The worst CPU wait of the last 3 s in ms (0 until the first measurement). */
export function cpuWaitMs(): number {
  if (!worker) {
    const buf = new SharedArrayBuffer(4)
    shared = new Int32Array(buf)
    worker = new Worker(WORKER, { eval: true, workerData: buf })
    worker.unref()
    worker.on('error', () => (worker = null))
  }
  if (idle) clearTimeout(idle)
  idle = setTimeout(stop, IDLE_STOP_MS)
  idle.unref()
  return Atomics.load(shared!, 0) / 1000
}

function stop(): void {
  void worker?.terminate()
  worker = null
  idle = null
}
