/**
 * The afterlife of the copies a swap moved off the path (design in `safe-write.ts`, step 6).
 *
 * An edit returns once its copies were quiet for the quiet window, but an appending agent that
 * opened the file before the swap may still write into its copy later: a process stalled between
 * `open` and `write` (descheduled, or waiting on a disk busy with other writes) is not visible in
 * the copy's bytes until it writes. So the copies are not deleted when the edit returns: they are
 * kept here until unchanged for `LATE_WRITE_GRACE_MS`, and bytes appended to one meanwhile are
 * put at the end of the live file, as the agent meant to, by an edit like Muster's own
 * (`safeEdit`), so an agent that rewrites the file from a read older than the merge cannot drop
 * them (a bare append could be overwritten so, with nothing watching any more). A copy
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
 * with is taken for what the agent read, and only the rest is the agent's, merged as above (its
 * leading lines the file already holds are not added again: they were merged from an earlier late
 * write the agent's read had missed). A whole file that starts with no such version is left beside
 * the file.
 */
import { constants as fsConstants, promises as fs } from 'node:fs'
import { dirname } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { safeEdit } from './safe-write'
import { guardsSettled } from './safe-write-guard'
import { withFileLock } from './safe-write-lock'
import { pause, signature } from './safe-write-settle'
import { looksWhole, startsWith } from './safe-write-swap'

/** How long a copy must stay unchanged after its edit before it is deleted. */
export const LATE_WRITE_GRACE_MS = 3000

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

/** Resolves once every kept copy was merged and let go, and no edit is guarded any more (tests, and a clean shutdown). */
export async function lateWritesSettled(): Promise<void> {
  do {
    while (loop) await loop
    await guardsSettled()
  } while (loop)
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
      // a fresh copy holding part of a known version is still being written: decide once it is whole
      if (c.fresh && c.versions.some((v) => v.length > bytes.length && startsWith(v, bytes))) return void (c.sig = '')
      c.changedAt = performance.now()
      if (!startsWith(bytes, c.known)) {
        // rewritten while aside, after its edit ended: kept beside the file, never deleted
        watched.delete(c)
        return
      }
      let late = bytes.subarray(c.known.length)
      let stale = false
      if (c.fresh) {
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
          stale = true
        }
        c.fresh = false
      }
      const merged = await mergeLate(c.path, late, bytes, stale)
      if (merged === 'merged') c.known = bytes
      else if (merged === 'missing')
        c.sig = '' // the path is missing for a moment: try again next poll
      else watched.delete(c) // could not be merged: kept beside the file, never deleted
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
 * Puts an agent's late bytes at the end of the live file, as the agent meant to, unless the file
 * already holds them as often as `copy` does. It is an edit like any of Muster's (`safeEdit`): an
 * agent that rewrites the file from a read older than the merge gets the bytes merged again,
 * instead of silently dropping them as a bare append would allow. Whitespace alone, or bytes that
 * are not UTF-8 by themselves, are appended with O_APPEND. `stale`: the bytes follow an older
 * version than the agent read (lines merged since were missing from that version), so their
 * leading lines that the file already holds are not added again.
 */
async function mergeLate(path: string, bytes: Buffer, copy: Buffer, stale: boolean): Promise<'merged' | 'missing' | 'failed'> {
  if (bytes.length === 0) return 'merged'
  const text = bytes.toString('utf8')
  if (text.trim() === '' || !Buffer.from(text, 'utf8').equals(bytes)) return appendRaw(path, bytes)
  const copyText = copy.toString('utf8')
  const edit = (t: string): string | null => {
    const rest = stale ? afterHeldLines(t, text) : text
    return rest === '' || occurrences(t, rest) >= occurrences(copyText, rest) ? null : t + rest
  }
  try {
    await safeEdit(path, edit, { within: dirname(path) })
    return 'merged'
  } catch (err) {
    return err instanceof ApiError && err.code === 'not_found' ? 'missing' : 'failed'
  }
}

/** `text` without its longest run of leading whole lines that `t` holds, starting at a line of its own. */
function afterHeldLines(t: string, text: string): string {
  const ends: number[] = []
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) ends.push(i + 1)
  for (let k = ends.length - 1; k >= 0; k--) {
    const run = text.slice(0, ends[k])
    if (run.trim() !== '' && (t.startsWith(run) || t.includes('\n' + run))) return text.slice(ends[k])
  }
  return text
}

/** Occurrences of `part` in `text` (non-overlapping). */
function occurrences(text: string, part: string): number {
  let n = 0
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++
  return n
}

/** Appends bytes to the live file with O_APPEND, under its edit lock ('missing' when it is not there right now). */
async function appendRaw(path: string, bytes: Buffer): Promise<'merged' | 'missing'> {
  return withFileLock(path, async () => {
    let fh
    try {
      fh = await fs.open(path, fsConstants.O_WRONLY | fsConstants.O_APPEND)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
      throw err
    }
    try {
      await fh.writeFile(bytes)
    } finally {
      await fh.close()
    }
    return 'merged'
  })
}
