/**
 * Promotion (spec A, "Ralph promotion rules" of the protocol document, and github/squad v0.12's
 * `squad notes promote`, TwoLayerBackend.promoteNotes): notes with `promote_to_permanent: true` on
 * commits reachable from the default branch become entries of the state folder's `decisions.md`;
 * notes with `archive_on_close: true` are archived as JSON files under its `research/`, on merged
 * commits (what Squad archives) and on unmerged ones ("even if the PR is rejected") alike. A note
 * written in another agent's namespace (the `foreign-namespace` finding) is neither promoted nor
 * archived: only a namespace's owner speaks for it. The state folder is Squad's `.squad/` at the
 * repository root (the older `.ai-team/` when only that exists). When `.squad/config.json` keeps
 * the state on the orphan branch `squad-state` (`orphan`, `two-layer`), notes Squad already put
 * there (`promoted/<ref>/<sha>.json`, `archive/<ref>/<sha>.json`) count as done, and applying is
 * refused: that branch is Squad's to write (`squad notes promote`); a dry run shows the plan.
 *
 * Planning is pure; applying goes through `safeEdit` (compare-and-swap, atomic rename), recomputing
 * on fresher content, so an agent's concurrent edit of decisions.md is never lost. A promoted note
 * is recognised by its marker and never promoted twice; an archive file that exists is left alone.
 */
import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { NotesSnapshot, SquadNote } from '../../shared/contract/notes-types'
import { makeDir } from '../make-dir'
import { safeEdit, type SafeWriteHooks } from '../muse'
import { appendEntries, decisionEntry, promotedIds } from './decisions'
import { isSharedNamespace } from './note-rules'
import { readStateBackend, stateBranchKey, stateDirOf, type SquadStateBackend } from './state-backend'

export { stateDirOf }

/** A decisions.md entry to append. */
export interface PlannedEntry {
  noteId: string
  ref: string
  commit: string
  title: string
  text: string
}

/** A research archive file to write. */
export interface PlannedArchive {
  noteId: string
  ref: string
  commit: string
  /** Relative to the repository root. */
  file: string
  text: string
}

/** Everything a promotion would change, and what it leaves alone. */
export interface PromotionPlan {
  /** Relative to the repository root. */
  decisionsFile: string
  createsDecisions: boolean
  entries: PlannedEntry[]
  archives: PlannedArchive[]
  alreadyPromoted: number
  alreadyArchived: number
  skipped: { noteId: string; ref: string; commit: string; reason: string }[]
  /** Where the repository keeps Squad's state (`local`, or the orphan branch). */
  stateBackend: Omit<SquadStateBackend, 'files'>
}

/** Why a note written in someone else's namespace is not promoted, or null when its writer owns it. */
export function foreignReason(note: SquadNote): string | null {
  if (!note.agent || isSharedNamespace(note.namespace) || note.agent.toLowerCase() === note.namespace.toLowerCase()) return null
  return `written by ${note.agent} in ${note.namespace}'s namespace (foreign-namespace): only ${note.namespace} speaks for it`
}

/** Notes in snapshot order, each id once. */
function uniqueNotes(snapshot: NotesSnapshot, want: (n: SquadNote, merged: boolean) => boolean): SquadNote[] {
  const seen = new Set<string>()
  const out: SquadNote[] = []
  for (const c of snapshot.commits) {
    for (const b of c.bodies) {
      for (const n of b.notes) {
        if (!want(n, c.merged) || seen.has(n.id)) continue
        seen.add(n.id)
        out.push(n)
      }
    }
  }
  return out
}

const byTime = (a: SquadNote, b: SquadNote) =>
  (a.timestamp ?? '').localeCompare(b.timestamp ?? '') || a.commit.localeCompare(b.commit) || a.line - b.line

/** The archive file of a note: `<state>/research/<namespace>-<commit 12>-<note id>.json`. */
export function archiveFile(stateDir: string, note: SquadNote): string {
  return `${stateDir}/research/${note.namespace.replace(/\//g, '-')}-${note.commit.slice(0, 12)}-${note.id}.json`
}

/** Plans a promotion of `snapshot` (of the repository at `snapshot.repo`). */
export async function planPromotion(snapshot: NotesSnapshot): Promise<PromotionPlan> {
  const root = snapshot.repo!
  const stateDir = stateDirOf(root)
  const decisionsFile = `${stateDir}/decisions.md`
  const current = await fs.readFile(join(root, decisionsFile), 'utf8').catch(() => null)
  const done = promotedIds(current ?? '')
  const { files, ...stateBackend } = await readStateBackend(root, stateDir)
  const onBranch = new Set(files)
  const skip = (note: SquadNote, reason: string) => plan.skipped.push({ noteId: note.id, ref: note.ref, commit: note.commit, reason })
  const plan: PromotionPlan = {
    decisionsFile,
    createsDecisions: current === null,
    entries: [],
    archives: [],
    alreadyPromoted: 0,
    alreadyArchived: 0,
    skipped: [],
    stateBackend
  }
  for (const note of uniqueNotes(snapshot, (n, merged) => n.promote && merged).sort(byTime)) {
    const foreign = foreignReason(note)
    if (foreign) {
      skip(note, `not promoted: ${foreign}`)
      continue
    }
    if (done.has(note.id) || onBranch.has(stateBranchKey('promoted', note.ref, note.commit))) {
      plan.alreadyPromoted++
      continue
    }
    const entry = decisionEntry(note)
    if ('reason' in entry) skip(note, entry.reason)
    else plan.entries.push({ noteId: note.id, ref: note.ref, commit: note.commit, title: entry.title, text: entry.text })
  }
  if (plan.entries.length === 0) plan.createsDecisions = false
  // archive_on_close: merged (as Squad archives) or not (a rejected branch), once per note
  for (const note of uniqueNotes(snapshot, (n) => n.archive).sort(byTime)) {
    const foreign = foreignReason(note)
    if (foreign) {
      skip(note, `not archived: ${foreign}`)
      continue
    }
    const file = archiveFile(stateDir, note)
    if (existsSync(join(root, file)) || onBranch.has(stateBranchKey('archive', note.ref, note.commit))) {
      plan.alreadyArchived++
      continue
    }
    const text = JSON.stringify({ ref: note.ref, commit: note.commit, note: note.data }, null, 2) + '\n'
    plan.archives.push({ noteId: note.id, ref: note.ref, commit: note.commit, file, text })
  }
  return plan
}

/** What applying wrote: entries appended and archive files created (others found them done meanwhile). */
export interface PromotionResult {
  appended: string[]
  archived: string[]
}

/** Applies `plan` in the repository at `root`. */
export async function applyPromotion(root: string, plan: PromotionPlan, hooks?: SafeWriteHooks): Promise<PromotionResult> {
  const result: PromotionResult = { appended: [], archived: [] }
  const sb = plan.stateBackend
  if (sb.branch && (plan.entries.length || plan.archives.length))
    throw new ApiError(
      `this repository keeps Squad's state on branch ${sb.branch} (stateBackend ${sb.kind}): Muster does not write there; run squad notes promote, or use --dry-run to see the plan`,
      'conflict'
    )
  if (plan.entries.length) {
    const file = join(root, plan.decisionsFile)
    await makeDir(join(file, '..'))
    await safeEdit(
      file,
      (text) => {
        const done = promotedIds(text)
        const todo = plan.entries.filter((e) => !done.has(e.noteId))
        result.appended = todo.map((e) => e.noteId)
        return todo.length
          ? appendEntries(
              text,
              todo.map((e) => e.text)
            )
          : null
      },
      { within: root, create: true, hooks }
    )
  }
  for (const a of plan.archives) {
    const file = join(root, a.file)
    await makeDir(join(file, '..'))
    const r = await safeEdit(file, (text) => (text === '' ? a.text : null), { within: root, create: true, hooks })
    if (r.created) result.archived.push(a.noteId)
  }
  return result
}
