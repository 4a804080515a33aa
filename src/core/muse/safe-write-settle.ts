/**
 * When a file's content is a valid base for an edit, and how long `safeEdit` watches after it
 * writes. The timing constants of the safe-write design live here, each with its reason; see
 * `safe-write.ts` for the design they serve.
 */
import { promises as fs, type BigIntStats } from 'node:fs'
import { basename } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { cpuWaitMs } from './cpu-wait'

/** How often watched files are polled: 5 ms keeps a watch cheap (one stat per file) yet prompt. */
export const POLL_MS = 5

/**
 * Floor of the quiet window: how long a copy moved off the path must stay unchanged before it is
 * let go, and how long after writing Muster waits before checking that its edit survived. Agents
 * write a line (open, write, close) or a whole file (read, write) within a millisecond on an idle
 * machine; 30 ms is 30 times that.
 */
export const WINDOW_MIN_MS = 30

/**
 * Under CPU load an agent can be descheduled between two system calls: the window adds 3x the
 * worst wait for a CPU of the last 3 s (`cpu-wait.ts`). The worst of those ~600 samples is about
 * the 99.8th percentile of the wait; three times it is well past anything they showed.
 */
const LOAD_FACTOR = 3
/** A window past one second would make edits feel hung; by then the machine is thrashing. */
export const WINDOW_MAX_MS = 1000

/**
 * A file shorter than Muster last saw it may be a rewrite in progress (truncated, partly written).
 * Writers finish a rewrite in one burst of write calls; a second without change means it is settled
 * (a deliberate shrink, such as an archive pass).
 */
export const SHRINK_SETTLE_MS = 1000

/**
 * An empty file is the signature of truncate-then-write. An empty role file is never urgent, so an
 * emptied file becomes a valid base only after 5 s of being empty (the reported reproduction holds
 * it empty for 2 s).
 */
export const EMPTY_SETTLE_MS = 5000

/** How long an edit waits for a suspicious file to fill or settle before refusing (nothing written). */
export const SETTLE_WAIT_MS = 3000

/**
 * A path that is missing for this long is deleted, not between the two steps of another writer's
 * swap (those leave it missing for microseconds).
 */
export const VANISH_GRACE_MS = 50

/** Overall bound of one edit, waits included. */
export const EDIT_TIMEOUT_MS = 10_000

/** Sleeps `ms` (one poll by default). */
export function pause(ms: number = POLL_MS): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** The current quiet window: the floor plus 3x the worst CPU wait of the last 3 s, capped. */
export function quietWindow(): number {
  return Math.min(WINDOW_MAX_MS, WINDOW_MIN_MS + LOAD_FACTOR * cpuWaitMs())
}

/** What identifies one state of a file: inode, size, modification time (ns). */
export function signature(st: BigIntStats): string {
  return `${st.ino}:${st.size}:${st.mtimeNs}`
}

const knownSizes = new Map<string, number>()

/** Remembers the size a file had when this process last read or wrote it whole. */
export function noteSize(path: string, size: number): void {
  if (knownSizes.size > 5000 && !knownSizes.has(path)) knownSizes.delete(knownSizes.keys().next().value!)
  knownSizes.set(path, size)
}

/** The size this process last saw, or undefined. */
export function knownSize(path: string): number | undefined {
  return knownSizes.get(path)
}

/** A settled read: the bytes and the state they were read in. */
export interface SettledRead {
  bytes: Buffer
  mode: number
  ino: bigint
}

/**
 * Reads the whole file once it is a valid base: not empty unless empty for `EMPTY_SETTLE_MS`, not
 * shorter than last seen unless unchanged for `SHRINK_SETTLE_MS`, and not changing while read.
 * Returns null when the file is absent (for `VANISH_GRACE_MS`, unless `absentOk`). Throws a `conflict` when it does not settle in time.
 */
export async function readSettled(
  path: string,
  opts: { deadline: number; sizeHint?: number; absentOk?: boolean }
): Promise<SettledRead | null> {
  const started = performance.now()
  let stableSig = ''
  let stableSince = started
  let missingSince: number | null = null
  for (;;) {
    const read = await readConsistent(path)
    const now = performance.now()
    if (!read) {
      // creating: a file that is there after all is found by the swap, so no need to wait
      missingSince ??= now
      if (opts.absentOk || now - missingSince >= VANISH_GRACE_MS) return null
      await pause()
      continue
    }
    missingSince = null
    const sig = signature(read.st)
    if (sig !== stableSig) {
      stableSig = sig
      stableSince = now
    }
    // the file's own mtime tells how long it has been unchanged, unless the clock disagrees
    const age = Math.max(now - stableSince, mtimeAge(read.st))
    const known = Math.max(knownSize(path) ?? 0, opts.sizeHint ?? 0)
    const size = read.bytes.length
    const doubt = size === 0 ? (age < EMPTY_SETTLE_MS ? 'empty' : null) : size < known && age < SHRINK_SETTLE_MS ? 'shorter' : null
    if (!doubt) {
      noteSize(path, size)
      return { bytes: read.bytes, mode: Number(read.st.mode) & 0o7777, ino: read.st.ino }
    }
    if (now - started >= SETTLE_WAIT_MS || now >= opts.deadline) {
      const secs = (age / 1000).toFixed(1)
      const what = doubt === 'empty' ? `is empty (changed ${secs} s ago)` : `shrank from ${known} to ${size} bytes ${secs} s ago`
      throw new ApiError(`${basename(path)} ${what}: an agent may be rewriting it; nothing written, try again in a few seconds`, 'conflict')
    }
    await pause(20)
  }
}

/** Milliseconds since the file's mtime; 0 when the mtime lies in the future (clock skew). */
function mtimeAge(st: BigIntStats): number {
  const ms = Date.now() - Number(st.mtimeNs / 1_000_000n)
  return ms > 0 ? ms : 0
}

/**
 * Reads the file with its stats, again (up to 20 times) while size or mtime change during the read.
 * A torn read is harmless anyway: the swap compares what it moves aside with these bytes.
 */
async function readConsistent(path: string): Promise<{ bytes: Buffer; st: BigIntStats } | null> {
  for (let attempt = 1; ; attempt++) {
    let fh
    try {
      fh = await fs.open(path, 'r')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    try {
      const before = await fh.stat({ bigint: true })
      const bytes = await fh.readFile()
      const after = await fh.stat({ bigint: true })
      if ((signature(before) === signature(after) && BigInt(bytes.length) === after.size) || attempt >= 20) return { bytes, st: after }
    } finally {
      await fh.close()
    }
    await pause(1)
  }
}
