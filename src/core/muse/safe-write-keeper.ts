/**
 * The afterlife of the versions a swap replaced (design in `safe-write.ts`, step 6), each still
 * reachable through a hard link beside the file.
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
 */
import { constants as fsConstants, promises as fs } from 'node:fs'
import { dirname } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { guardsSettled } from './safe-write-guard'
import { withFileLock } from './safe-write-lock'
import { pause, signature } from './safe-write-settle'
import { startsWith } from './safe-write-swap'
import type { SafeEditFn } from './safe-write-types'

/** How long a copy must stay unchanged after its edit before it is deleted. */
export const LATE_WRITE_GRACE_MS = 3000

/** How often kept copies are polled (one stat each). */
const KEEP_POLL_MS = 20

/** A copy handed over by an edit: its name, the live file, and the bytes the edit accounted for. */
export interface KeptCopy {
  name: string
  path: string
  known: Buffer
}

interface Watched extends KeptCopy {
  /** How late bytes are merged: `safeEdit`. */
  reedit: SafeEditFn
  sig: string
  changedAt: number
}

const watched = new Set<Watched>()
let loop: Promise<void> | null = null

/** Keeps `copies` watched for late appends, merged through `reedit` (`safeEdit`), then deletes them (see the header). */
export function keepCopies(copies: KeptCopy[], reedit: SafeEditFn): void {
  const now = performance.now()
  for (const c of copies) watched.add({ ...c, reedit, sig: '', changedAt: now })
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
      c.changedAt = performance.now()
      if (!startsWith(bytes, c.known)) {
        // rewritten while aside, after its edit ended: kept beside the file, never deleted
        watched.delete(c)
        return
      }
      const merged = await mergeLate(c.path, bytes.subarray(c.known.length), bytes, c.reedit)
      if (merged === 'merged') c.known = bytes
      else if (merged === 'missing')
        c.sig = '' // the path is missing (deleted, or between another program's two steps): try again next poll
      else watched.delete(c) // could not be merged: kept beside the file, never deleted
      return
    }
  }
  if (performance.now() - c.changedAt >= LATE_WRITE_GRACE_MS) {
    watched.delete(c)
    await fs.rm(c.name, { force: true })
  }
}

/**
 * Puts an agent's late bytes at the end of the live file, as the agent meant to, unless the file
 * already holds them as often as `copy` does. It is an edit like any of Muster's (`safeEdit`): an
 * agent that rewrites the file from a read older than the merge gets the bytes merged again,
 * instead of silently dropping them as a bare append would allow. Whitespace alone, or bytes that
 * are not UTF-8 by themselves, are appended with O_APPEND.
 */
async function mergeLate(path: string, bytes: Buffer, copy: Buffer, safeEdit: SafeEditFn): Promise<'merged' | 'missing' | 'failed'> {
  if (bytes.length === 0) return 'merged'
  const text = bytes.toString('utf8')
  if (text.trim() === '' || !Buffer.from(text, 'utf8').equals(bytes)) return appendRaw(path, bytes)
  const copyText = copy.toString('utf8')
  const edit = (t: string): string | null => (occurrences(t, text) >= occurrences(copyText, text) ? null : t + text)
  try {
    await safeEdit(path, edit, { within: dirname(path) })
    return 'merged'
  } catch (err) {
    return err instanceof ApiError && err.code === 'not_found' ? 'missing' : 'failed'
  }
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
