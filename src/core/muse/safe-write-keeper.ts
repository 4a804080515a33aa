/**
 * The afterlife of the copies a swap moved off the path (design in `safe-write.ts`, step 6).
 *
 * An edit returns once its copies were quiet for the quiet window, but an appending agent that
 * opened the file before the swap may still write into its copy later: a process stalled between
 * `open` and `write` (descheduled, or waiting on a disk busy with other writes) is not visible in
 * the copy's bytes until it writes. So the copies are not deleted when the edit returns: they are
 * kept here until unchanged for `LATE_WRITE_GRACE_MS`, and bytes appended to one meanwhile are
 * appended to the live file (O_APPEND, as the agent meant to), under the file's edit lock. A copy
 * changed in any other way (truncated, rewritten) is left beside the file, never deleted, for lint
 * to report once this process is gone.
 *
 * The timers keep the process alive until every copy is let go, so a CLI edit exits only then;
 * `lateWritesSettled` waits for the same.
 *
 * A copy an agent created while the path was missing and left empty is either an appender's (it
 * will write lines) or a truncating agent's (it will write all it read plus its change). Once
 * bytes that look like a whole file arrive in it, they are taken for the latter: the longest
 * version of the file, among those seen or written before the copy was created, that they start
 * with is what the agent read, and only the rest is the agent's, appended to the live file unless
 * it already holds it. A whole file that starts with no such version is left beside the file.
 */
import { constants as fsConstants, promises as fs } from 'node:fs'
import { withFileLock } from './safe-write-lock'
import { pause, signature } from './safe-write-settle'
import { count, looksWhole, startsWith } from './safe-write-swap'

/** How long a copy must stay unchanged after its edit before it is deleted. */
export const LATE_WRITE_GRACE_MS = 1500

/** How often kept copies are polled (one stat each). */
const KEEP_POLL_MS = 20

/** A copy handed over by an edit: its name, the live file, and the bytes the edit accounted for. */
export interface KeptCopy {
  name: string
  path: string
  known: Buffer
  /** Created empty by an agent while the path was missing (see the header). */
  fresh: boolean
  /** For a fresh copy, the versions of the file seen or written before it was created: what its agent may have read. */
  versions: Buffer[]
}

interface Watched extends KeptCopy {
  sig: string
  changedAt: number
}

const watched = new Set<Watched>()
let loop: Promise<void> | null = null

/** Keeps `copies` watched for late appends, then deletes them (see the header). */
export function keepCopies(copies: KeptCopy[]): void {
  const now = performance.now()
  for (const c of copies) watched.add({ ...c, sig: '', changedAt: now })
  loop ??= run().finally(() => (loop = null))
}

/** Resolves once every kept copy was merged and let go (tests, and a clean shutdown). */
export async function lateWritesSettled(): Promise<void> {
  while (loop) await loop
}

async function run(): Promise<void> {
  while (watched.size) {
    await pause(KEEP_POLL_MS)
    await Promise.all([...watched].map(check))
  }
}

async function check(c: Watched): Promise<void> {
  const st = await fs.stat(c.name, { bigint: true }).catch(() => null)
  if (!st) {
    watched.delete(c)
    return
  }
  const sig = signature(st)
  if (sig !== c.sig) {
    c.sig = sig
    const bytes = await fs.readFile(c.name).catch(() => null)
    if (bytes && !bytes.equals(c.known)) {
      c.changedAt = performance.now()
      if (!startsWith(bytes, c.known)) {
        // rewritten while aside, after its edit ended: kept beside the file, never deleted
        watched.delete(c)
        return
      }
      let late = bytes.subarray(c.known.length)
      let need = 0
      if (c.fresh) {
        // still being written (a prefix of a version): decide once it is whole
        if (c.versions.some((v) => v.length > bytes.length && startsWith(v, bytes))) return void (c.sig = '')
        const live = await fs.readFile(c.path).catch(() => null)
        if (!live) return void (c.sig = '')
        if (looksWhole(bytes, live)) {
          const read = longestPrefix(bytes, c.versions)
          if (!read) {
            // a rewrite from a version Muster never saw: kept beside the file, never deleted
            watched.delete(c)
            return
          }
          late = bytes.subarray(read.length)
          need = count(bytes, late)
        }
        c.fresh = false
      }
      if (await appendLate(c.path, late, need)) c.known = bytes
      else c.sig = '' // the path is missing for a moment: try again next poll
      return
    }
  }
  if (performance.now() - c.changedAt >= LATE_WRITE_GRACE_MS) {
    watched.delete(c)
    await fs.rm(c.name, { force: true })
  }
}

/** The longest of `versions` that `bytes` starts with (null when none does). */
function longestPrefix(bytes: Buffer, versions: Buffer[]): Buffer | null {
  let best: Buffer | null = null
  for (const v of versions) if (v.length > 0 && (!best || v.length > best.length) && startsWith(bytes, v)) best = v
  return best
}

/**
 * Appends an agent's late bytes to the live file; false when it is missing right now. With `need`,
 * only when the file holds them fewer times than that (they may be there already).
 */
async function appendLate(path: string, bytes: Buffer, need = 0): Promise<boolean> {
  return withFileLock(path, async () => {
    if (bytes.length === 0) return true
    if (need > 0) {
      const live = await fs.readFile(path).catch(() => null)
      if (!live) return false
      if (bytes.toString('utf8').trim() === '' || count(live, bytes) >= need) return true
    }
    let fh
    try {
      fh = await fs.open(path, fsConstants.O_WRONLY | fsConstants.O_APPEND)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw err
    }
    try {
      await fh.writeFile(bytes)
    } finally {
      await fh.close()
    }
    return true
  })
}
