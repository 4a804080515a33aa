/**
 * Edits of files that agents write at the same time (spec section 8): the one door every role-file,
 * memory-log and decisions-file write of Muster goes through.
 *
 * The promise: no byte an agent writes is lost, and Muster's edit lands exactly once, or the call
 * fails with a clear error and the edit is not in the file. It holds for the three ways agents and
 * editors write: append mode (open O_APPEND, write, close), truncate then write in place, and
 * write a temp file then rename it over the file.
 *
 * Why compare-then-rename lost data: (a) an appending agent that opened the file before the rename
 * wrote its line into the inode the rename replaced; (b) an agent's rename landing between the
 * final compare and Muster's rename was itself replaced; (c) an agent that read before and wrote
 * after Muster's rename dropped Muster's edit; and an empty or half-written file (truncate, then
 * write) was taken as the content to edit. In-place writes cannot fix (a): an append landing
 * between Muster's read and its write is overwritten without a trace. A rename can, if the inode
 * it replaces stays reachable. So one edit is:
 *
 * 1. Settled read (`safe-write-settle.ts`): the base of an edit is a complete version. An empty
 *    file, one shorter than this process last knew it (a scan's stat only ever raises that size,
 *    since it may have seen a half-written file), or one ending mid-line is a valid base only once
 *    unchanged for a while (5 s empty, 3 s shorter or cut); the edit waits up to 4 s for it to fill
 *    or settle, then refuses with nothing written.
 * 2. Compute: the edit function returns null when its change is already there, so it can be
 *    re-applied without duplicating (every Muster edit is idempotent).
 * 3. Swap (`safe-write-swap.ts`): the path is never removed, so a reader never finds it missing.
 *    First `link(path, aside)` keeps the version being replaced reachable under a dot-name beside
 *    it; its bytes must be byte for byte the base (or, after 3 redone swaps, the base plus appended
 *    bytes, carried to the end of the new version, so an agent appending faster than an edit can be
 *    redone cannot starve it); anything else means the edit is redone on the fresh content, so a
 *    version computed from stale content is never installed. Then `lstat(path)` checks that the
 *    path is still that inode, and the new version goes in by an atomic exchange
 *    (`rename-exchange.ts`: `renameat2(RENAME_EXCHANGE)`, `renamex_np(RENAME_SWAP)`), which hands
 *    back what was at the path: if it is not the checked version, another writer renamed its own
 *    in that instant, and it is exchanged back to the path and the edit redone on it. Without an
 *    exchange, the swap is one `rename` right after the check (two back-to-back system calls).
 * 4. Merge: the replaced version is watched through its link. Bytes appended to it after the swap
 *    (an agent that opened it before the rename, O_APPEND) are owed to the file and appended to it
 *    with O_APPEND, as the agent would have done; appending replaces no inode, so merging never
 *    races. A replaced version rewritten in place (an agent holding it O_TRUNC) goes back to the
 *    path (renamed over it through a second link, if the path still holds what Muster installed),
 *    so the agent's newer version becomes the base and its further writes land in the live file;
 *    the edit is redone on it once it is complete (step 1 waits while it is mid-write).
 * 5. Settle window: the replaced versions are watched until none changed for the quiet window (30 ms
 *    plus 3x the worst wait for a CPU of the last 3 s, measured on a worker thread), and the file is
 *    re-read one window after Muster's last write: if an agent that read before that write has
 *    since written back without the edit or the owed bytes, they are re-applied (the edit only
 *    then: while the file starts with what Muster installed, it is there). Then the edit returns.
 * 6. Afterlife (`safe-write-keeper.ts`): the links are kept, not deleted, until unchanged for
 *    3 s more; bytes an appending agent writes into a replaced version meanwhile (it opened the file
 *    before the swap and was stalled, descheduled or waiting on a busy disk, past the quiet window)
 *    are put at the end of the live file by an edit like this one (so an agent rewriting the file
 *    from a read older than that merge cannot drop them). A version rewritten in that time is left
 *    beside the file. The process stays alive until its links are let go (a CLI edit exits 3 s
 *    after it is done).
 *
 * 7. Guard (`safe-write-guard.ts`, for sends): the file is watched for 3 s after the edit returns
 *    and after each change (10 s once dropped, 30 s at most); an agent that rewrote it from a read
 *    older than the edit (a rename or a truncating write stalled past the quiet window) gets the
 *    edit applied again on its version (a 3-way merge: the edit only adds lines), at once for a
 *    whole version renamed in, as often as it is dropped, and watched 10 s more each time it is
 *    back (a re-application that failed or found it there already included); a re-application
 *    that fails leaves nothing beside the file (its replaced versions go to the afterlife, step 6,
 *    which merges what they gained); an edit that still cannot be applied after 2 minutes is kept
 *    beside the file as a `-lost-` copy, reported by lint and on stderr: acknowledged, then in the
 *    file or reported.
 *
 * Limits, stated: an appending writer that stalls between opening and writing for longer than the
 * afterlife (3 s) cannot be told from one that finished: its line lands in a deleted copy. An agent
 * that rewrites the file from a read older than Muster's edit overwrites the edit after Muster last
 * checked; the guard (step 7) puts it back or reports it. Where the system has no atomic exchange
 * (Windows, a file system that refuses it), a renaming agent (temp file + `rename`) whose rename
 * lands between Muster's final check and Muster's rename has its version replaced by Muster's: its
 * inode has no name left, so nothing can merge it. It is not silent: on Linux the folder's change
 * events show a rename of the path inside the window, and the loss is reported on stderr
 * (`safe-write-witness.ts`). Moving the file aside and linking the new version in would lose no
 * rename but leave the path missing for a moment (a reader finds ENOENT), which is worse for every
 * reader. A truncating or appending agent loses nothing in that window: it writes into the
 * replaced version, which stays reachable and watched.
 * `test/stress/stalled-writers.test.ts` stalls agents 0.3-2 s mid-write beside a third-party reader
 * that must never find the path missing, `agent-stalls.test.ts` 250 ms between open and write. Two agents rewriting one file at once lose each other's
 * work without Muster too; if that happens while Muster merges, the losing version is kept beside
 * the file and named in the error. Within one process, edits of a file take turns for the read and
 * swap (not for the watching); other Muster processes are just other writers. Leftovers of a
 * crashed process are cleaned up or reported (`write-leftovers.ts`); writes go only to real paths
 * inside the project (`link-policy.ts`). BOM, line endings, final newline and untouched bytes are
 * kept byte for byte; the file's mode is kept (its owner is the writer's, as with any rename).
 */
import { ApiError } from '../../shared/api-error'
import { writableTarget } from './link-policy'
import { decode, EditSession } from './safe-write-session'
import { guardEdit } from './safe-write-guard'
import { EDIT_TIMEOUT_MS, knownSize, readSettled } from './safe-write-settle'
import type { SafeEditOptions, SafeEditResult, SafeWriteHooks } from './safe-write-types'
import { sweepLeftovers } from './write-leftovers'

export type { SafeEditOptions, SafeEditResult, SafeWriteHooks } from './safe-write-types'

let defaultHooks: SafeWriteHooks | undefined

/** Installs hooks used by every `safeEdit` without its own (tests drive the CLI end to end); undefined resets. */
export function setDefaultSafeWriteHooks(hooks: SafeWriteHooks | undefined): void {
  defaultHooks = hooks
}

/**
 * Applies `edit` to the file's text (BOM stripped and put back). `edit` returns the new text, or
 * null when its change is already present; it must be pure, since it may run again on fresher
 * content.
 */
export async function safeEdit(path: string, edit: (text: string) => string | null, opts: SafeEditOptions): Promise<SafeEditResult> {
  const real = await writableTarget(path, opts.within)
  await sweepLeftovers(real)
  const result = await new EditSession(
    real,
    edit,
    { ...opts, hooks: opts.hooks ?? defaultHooks, sizeHint: opts.sizeHint ?? knownSize(path) },
    safeEdit
  ).run()
  // a re-application that found the edit there already keeps watching: the writer that dropped it may drop it again
  if (opts.guard && (result.changed || opts.guardRound))
    guardEdit({
      path: real,
      within: opts.within,
      edit,
      installed: Buffer.from(result.text, 'utf8'),
      round: opts.guardRound ?? 0,
      reapply: (round) => safeEdit(path, edit, { ...opts, create: false, guardRound: round })
    })
  return result
}

/** Reads a file as `safeEdit` would before editing it: link policy, settled, valid UTF-8. */
export async function readEditable(path: string, within: string, sizeHint?: number): Promise<string> {
  const real = await writableTarget(path, within)
  const read = await readSettled(real, { deadline: performance.now() + EDIT_TIMEOUT_MS, sizeHint })
  if (!read) throw new ApiError(`${path} does not exist`, 'not_found')
  return decode(real, read.bytes)
}
