/**
 * After an edit returns (design in `safe-write.ts`, step 7): an agent that rewrites the file from
 * a read older than the edit (temp + rename, or truncate + write, stalled past the quiet window)
 * drops the edit after Muster last checked. So the file is watched for `GUARD_MS` more: whenever
 * it changes, the edit function is asked whether its change is still there (it returns null when
 * it is); if not, the edit is applied again (`safeEdit`, idempotent) once the file has been quiet
 * for a while (the writer is done), and if that fails, the
 * version Muster installed is kept beside the file as `.<file>.muster-lost-<pid>-<hex>`, which
 * lint reports until the operator merges it, and the loss is written to stderr. An acknowledged
 * edit is thus in the file or reported, never silently gone.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { noteSize, pause, quietWindow, SHRINK_SETTLE_MS, signature } from './safe-write-settle'

/**
 * How long an edit's file is watched after the edit returned, and after each change of it since:
 * past the 2 s stalls agents show under load (a writer stopped with SIGSTOP for longer and then
 * renaming a stale version is caught as long as the file keeps changing).
 */
export const GUARD_MS = 3000
/** Longest watch of one edit, however busy the file (a CLI send keeps its process alive while it watches). */
const GUARD_MAX_MS = 30_000
/** How long an edit applied again is watched: its writer works from stale reads and may drop it again. */
const REDROP_GUARD_MS = 10_000
/** How often a guarded file is polled (one stat). */
const GUARD_POLL_MS = 20
/**
 * Re-applications of one edit at most (an agent that keeps dropping it is then reported). A busy
 * renaming agent drops a send once per stale rename; each re-application is one more 3-way merge.
 */
const MAX_REAPPLY = 100
/**
 * A dropped edit is applied again once the file was unchanged this long: the writer that dropped it
 * may still be writing (and a file shorter than Muster last knew it is no valid base before then).
 */
const REAPPLY_QUIET_MS = SHRINK_SETTLE_MS + 100
/** Longest wait for that quiet before the edit is reported instead. */
const REAPPLY_WAIT_MS = 120_000

/** An edit to keep in the file. */
export interface GuardedEdit {
  path: string
  within: string
  edit: (text: string) => string | null
  /** The bytes Muster installed (kept beside the file when the edit cannot be re-applied). */
  installed: Buffer
  /** Applies the edit again (safeEdit, guarded in turn with `round` + 1). */
  reapply: (round: number) => Promise<unknown>
  round: number
}

interface Watch extends GuardedEdit {
  started: number
  until: number
  /** The inode and size of the file when last seen (null: not yet, or missing). */
  ino: bigint | null
  size: number
  /** The last change put another inode at the path with a complete last line: a whole version renamed in. */
  renamedWhole: boolean
  sig: string
  /** When the file was last seen to change. */
  changedAt: number
  /** Since when the edit is missing (null: it is there). */
  missingSince: number | null
}

const watches = new Set<Watch>()
let loop: Promise<void> | null = null
/** Edits reported lost in this process (for tests and the service's log). */
export const lostEdits: { path: string; kept: string; reason: string }[] = []

/** Watches a file for `GUARD_MS` and keeps the edit in it (see the header). */
export function guardEdit(g: GuardedEdit): void {
  const now = performance.now()
  watches.add({
    ...g,
    started: now,
    until: now + (g.round > 0 ? REDROP_GUARD_MS : GUARD_MS),
    sig: '',
    changedAt: now,
    missingSince: null,
    ino: null,
    size: 0,
    renamedWhole: false
  })
  loop ??= run().finally(() => (loop = null))
}

/** Resolves once no edit is guarded any more (tests, and a clean shutdown). */
export async function guardsSettled(): Promise<void> {
  while (loop) await loop
}

async function run(): Promise<void> {
  while (watches.size) {
    await pause(GUARD_POLL_MS)
    await Promise.all([...watches].map(check))
  }
}

async function check(w: Watch): Promise<void> {
  const now = performance.now()
  const st = await fs.stat(w.path, { bigint: true }).catch(() => null)
  const sig = st ? signature(st) : 'missing'
  if (sig !== w.sig) {
    const first = w.sig === ''
    w.sig = sig
    w.changedAt = now
    if (!first) w.until = Math.min(w.started + GUARD_MAX_MS, Math.max(w.until, now + GUARD_MS))
    const bytes = st ? await fs.readFile(w.path).catch(() => null) : null
    const text = bytes?.toString('utf8').replace(/^\uFEFF/, '') ?? null
    w.renamedWhole = !!st && !!bytes && w.ino !== null && st.ino !== w.ino && bytes.length > 0 && bytes[bytes.length - 1] === 0x0a
    w.ino = st ? st.ino : null
    w.size = bytes?.length ?? 0
    const was = w.missingSince
    w.missingSince = text !== null && w.edit(text) !== null ? (w.missingSince ?? now) : null
    // back in the file (merged again, here or by a sibling edit): watched as long as a fresh drop is,
    // since the writer that dropped it may drop it again; a watch never ends at its first sight of it
    if (was !== null && w.missingSince === null) w.until = Math.max(w.until, now + REDROP_GUARD_MS)
  }
  if (w.missingSince === null) {
    if (now >= w.until) watches.delete(w)
    return
  }
  // dropped: applied again once the file is quiet (the writer is done), or reported
  if (now - w.missingSince >= REAPPLY_WAIT_MS) {
    watches.delete(w)
    return void (await report(w, `the file kept changing for ${REAPPLY_WAIT_MS / 1000} s`))
  }
  // a whole version renamed in is a complete base at once: the edit is merged into it (it only adds
  // lines); a file rewritten in place may still be mid-write, so that waits for the writer to be done
  if (now - w.changedAt < (w.renamedWhole ? quietWindow() : REAPPLY_QUIET_MS)) return
  watches.delete(w)
  if (w.round >= MAX_REAPPLY) return void (await report(w, `dropped ${w.round} times by other writers`))
  // shorter than the version Muster installed, as a version without the edit is: no rewrite to wait out
  if (w.renamedWhole && w.ino !== null) noteSize(w.path, w.size, w.ino)
  try {
    await w.reapply(w.round + 1)
  } catch (err) {
    // the writer is still at it (the file did not settle, or changed under the swap): try again
    // while the wait lasts; only then is the edit kept aside
    if (now - w.missingSince < REAPPLY_WAIT_MS && (err as { code?: unknown }).code === 'conflict') {
      w.sig = ''
      w.changedAt = performance.now()
      watches.add(w)
      loop ??= run().finally(() => (loop = null))
      return
    }
    await report(w, (err as Error).message)
  }
}

/** Keeps the installed version beside the file (lint reports it) and says so on stderr. */
async function report(w: Watch, reason: string): Promise<void> {
  const kept = join(dirname(w.path), `.${basename(w.path)}.muster-lost-${process.pid}-${randomBytes(4).toString('hex')}`)
  await fs.writeFile(kept, w.installed, { flag: 'wx' }).catch(() => undefined)
  lostEdits.push({ path: w.path, kept, reason })
  process.stderr.write(
    `muster: an edit of ${w.path} was overwritten by another writer and could not be applied again (${reason}); the version holding it is kept as ${basename(kept)}\n`
  )
}
