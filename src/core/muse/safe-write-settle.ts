/**
 * When a file's content is a valid base for an edit, and how long `safeEdit` watches after it
 * writes. The timing constants of the safe-write design live here, each with its reason; see
 * `safe-write.ts` for the design they serve.
 */
import { promises as fs, type BigIntStats } from 'node:fs'
import { basename } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { throwIfStopped } from './safe-write-stop'
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
 * A file shorter than Muster last saw it, or one whose last line is cut (no final newline), may be a
 * rewrite in progress (truncated, partly written). Writers finish a rewrite in one burst of write
 * calls, but a loaded machine can stop one for a couple of seconds between two of them (the stress
 * test stalls truncating agents 0.3-2 s mid-write): 3 s without change means it is settled (a
 * deliberate shrink, such as an archive pass).
 */
export const SHRINK_SETTLE_MS = 3000

/**
 * An empty file is the signature of truncate-then-write. An empty role file is never urgent, so an
 * emptied file becomes a valid base only after 5 s of being empty (the reported reproduction holds
 * it empty for 2 s).
 */
export const EMPTY_SETTLE_MS = 5000

/** How long an edit waits for a suspicious file to fill or settle before refusing (nothing written). */
export const SETTLE_WAIT_MS = 4000

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

/** Per file, the size this process knows it to have, and the inode it had then (null: not known). */
const knownSizes = new Map<string, { size: number; ino: bigint | null }>()

/**
 * Remembers the size a file had when this process last read or wrote it whole (a settled read or
 * an install: the size it is now known to have), with its inode when known.
 */
export function noteSize(path: string, size: number, ino: bigint | null = null): void {
  if (knownSizes.size > 5000 && !knownSizes.has(path)) knownSizes.delete(knownSizes.keys().next().value!)
  knownSizes.set(path, { size, ino })
}

/**
 * Remembers a size seen in passing (a scan's stat): for the same file it only ever raises the
 * known size, since a scan may stat a file half-written by a truncating agent, and taking that for
 * its size would make the half a valid base. A settled read lowers it.
 */
export function noteSeenSize(path: string, size: number, ino: bigint | number | null = null): void {
  const known = knownSizes.get(path)
  const id = ino === null ? null : BigInt(ino)
  if (!known || (id !== null && known.ino !== null && known.ino !== id) || size > known.size) noteSize(path, size, id)
}

/** The size this process last saw, or undefined. */
export function knownSize(path: string): number | undefined {
  return knownSizes.get(path)?.size
}

/** A settled read: the bytes and the state they were read in. */
export interface SettledRead {
  bytes: Buffer
  mode: number
  ino: bigint
}

/**
 * Reads the whole file once it is a valid base, a complete version: not empty unless empty for
 * `EMPTY_SETTLE_MS`, not shorter than last seen nor ending mid-line unless unchanged for
 * `SHRINK_SETTLE_MS`, and not changing while read.
 * Returns null when the file is absent (for `VANISH_GRACE_MS`, unless `absentOk`). Throws a `conflict` when it does not settle in time.
 */
export async function readSettled(
  path: string,
  opts: { deadline: number; sizeHint?: number; absentOk?: boolean; signal?: AbortSignal }
): Promise<SettledRead | null> {
  const started = performance.now()
  let stableSig = ''
  let stableSince = started
  let missingSince: number | null = null
  for (;;) {
    throwIfStopped(opts.signal, path)
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
    // (a file renamed in whole may be shorter too: an agent's copy from an older read; it waits all the same,
    // since taking it at once let a fast renaming agent's lines slip between Muster's swaps in the stress race)
    const known = Math.max(knownSizes.get(path)?.size ?? 0, opts.sizeHint ?? 0)
    const size = read.bytes.length
    const cut = size > 0 && read.bytes[size - 1] !== 0x0a
    const doubt =
      size === 0 ? (age < EMPTY_SETTLE_MS ? 'empty' : null) : age >= SHRINK_SETTLE_MS ? null : size < known ? 'shorter' : cut ? 'cut' : null
    if (!doubt) {
      noteSize(path, size, read.st.ino)
      return { bytes: read.bytes, mode: Number(read.st.mode) & 0o7777, ino: read.st.ino }
    }
    if (now - started >= SETTLE_WAIT_MS || now >= opts.deadline) {
      const secs = (age / 1000).toFixed(1)
      const what =
        doubt === 'empty'
          ? `is empty (changed ${secs} s ago)`
          : doubt === 'cut'
            ? `ends in the middle of a line (changed ${secs} s ago)`
            : `shrank from ${known} to ${size} bytes ${secs} s ago`
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
