/**
 * What the Notes screen derives from a notes snapshot: filtered commit rows with per-commit counts
 * and findings, shape labels, and the filter vocabulary (namespaces, types).
 */
import type { NoteFinding, NoteShape, NotedCommit, NotesSnapshot } from '../../../../shared/api'

/** How each body shape is named on screen, and where it comes from. */
export const SHAPE_LABELS: Record<NoteShape, { label: string; title: string }> = {
  object: { label: 'one object', title: 'One JSON object (git notes add)' },
  appended: { label: 'appended', title: 'Objects separated by a blank line (git notes append)' },
  jsonl: { label: 'JSON Lines', title: 'Sorted, de-duplicated JSON lines (git notes merge -s cat_sort_uniq)' },
  pretty: { label: 'pretty JSON', title: 'Pretty-printed multi-line JSON written by hand' },
  mixed: { label: 'mixed', title: 'Several of the shapes in one body' },
  empty: { label: 'empty', title: 'The note body is empty' },
  unparseable: { label: 'no JSON', title: 'Nothing in this body parses as JSON' }
}

/** Filters of the commit list. */
export interface NotesFilters {
  namespace: string
  type: string
  text: string
  onlyFindings: boolean
}

/** One row of the commit list. */
export interface CommitRow {
  commit: NotedCommit
  notes: number
  namespaces: string[]
  promote: number
  archive: number
  errors: number
  warnings: number
}

/** Findings grouped by commit (repository-wide ones under `''`). */
export function findingsByCommit(findings: readonly NoteFinding[]): Map<string, NoteFinding[]> {
  const out = new Map<string, NoteFinding[]>()
  for (const f of findings) {
    const k = f.commit ?? ''
    out.set(k, [...(out.get(k) ?? []), f])
  }
  return out
}

/** Namespaces and note types present, sorted, for the filter pickers. */
export function vocabulary(snapshot: NotesSnapshot): { namespaces: string[]; types: string[] } {
  const types = new Set<string>()
  for (const c of snapshot.commits) for (const b of c.bodies) for (const n of b.notes) if (n.type) types.add(n.type)
  return { namespaces: snapshot.refs.map((r) => r.namespace).sort(), types: [...types].sort() }
}

const matchesText = (c: NotedCommit, needle: string): boolean =>
  c.sha.startsWith(needle) ||
  (c.subject ?? '').toLowerCase().includes(needle) ||
  c.bodies.some((b) => b.notes.some((n) => n.summary.toLowerCase().includes(needle) || (n.agent ?? '').toLowerCase().includes(needle)))

/** The commit rows that pass the filters, newest first, with their counts. */
export function commitRows(snapshot: NotesSnapshot, byCommit: Map<string, NoteFinding[]>, f: NotesFilters): CommitRow[] {
  const needle = f.text.trim().toLowerCase()
  const rows: CommitRow[] = []
  for (const commit of snapshot.commits) {
    const bodies = commit.bodies.filter((b) => !f.namespace || b.namespace === f.namespace)
    const notes = bodies.flatMap((b) => b.notes).filter((n) => !f.type || n.type === f.type)
    if (!bodies.length || (f.type && !notes.length)) continue
    const findings = (byCommit.get(commit.sha) ?? []).filter((x) => !f.namespace || x.ref === `refs/notes/squad/${f.namespace}`)
    if (f.onlyFindings && !findings.length) continue
    if (needle && !matchesText(commit, needle)) continue
    rows.push({
      commit,
      notes: notes.length,
      namespaces: bodies.map((b) => b.namespace),
      promote: notes.filter((n) => n.promote).length,
      archive: notes.filter((n) => n.archive).length,
      errors: findings.filter((x) => x.level === 'error').length,
      warnings: findings.filter((x) => x.level === 'warning').length
    })
  }
  return rows
}

/** First 12 characters of a sha. */
export const shortSha = (sha: string): string => sha.slice(0, 12)
