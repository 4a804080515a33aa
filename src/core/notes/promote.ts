/**
 * Promotion (spec A, "Ralph promotion rules" of the protocol document): notes with
 * `promote_to_permanent: true` on commits reachable from the default branch become entries of the
 * state folder's `decisions.md`; notes with `archive_on_close: true` on commits the default branch
 * does not reach are archived as JSON files under its `research/`. The state folder is Squad's
 * `.squad/` at the repository root (the older `.ai-team/` when only that exists).
 *
 * Planning is pure; applying goes through `safeEdit` (compare-and-swap, atomic rename), recomputing
 * on fresher content, so an agent's concurrent edit of decisions.md is never lost. A promoted note
 * is recognised by its marker and never promoted twice; an archive file that exists is left alone.
 */
import { existsSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { NotesSnapshot, SquadNote } from '../../shared/contract/notes-types'
import { makeDir } from '../make-dir'
import { safeEdit, type SafeWriteHooks } from '../muse'
import { appendEntries, decisionEntry, promotedIds } from './decisions'

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
}

/** The state folder of the repository at `root`, relative to it. */
export function stateDirOf(root: string): string {
  return !existsSync(join(root, '.squad')) && existsSync(join(root, '.ai-team')) ? '.ai-team' : '.squad'
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
  const plan: PromotionPlan = {
    decisionsFile,
    createsDecisions: current === null,
    entries: [],
    archives: [],
    alreadyPromoted: 0,
    alreadyArchived: 0,
    skipped: []
  }
  for (const note of uniqueNotes(snapshot, (n, merged) => n.promote && merged).sort(byTime)) {
    if (done.has(note.id)) {
      plan.alreadyPromoted++
      continue
    }
    const entry = decisionEntry(note)
    if ('reason' in entry) plan.skipped.push({ noteId: note.id, ref: note.ref, commit: note.commit, reason: entry.reason })
    else plan.entries.push({ noteId: note.id, ref: note.ref, commit: note.commit, title: entry.title, text: entry.text })
  }
  if (plan.entries.length === 0) plan.createsDecisions = false
  for (const note of uniqueNotes(snapshot, (n, merged) => n.archive && !merged).sort(byTime)) {
    const file = archiveFile(stateDir, note)
    if (existsSync(join(root, file))) {
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
