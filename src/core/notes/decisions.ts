/**
 * `decisions.md` entries from promoted notes, in the heading format agents write by hand (spec A):
 *
 *     ### 2026-03-23T14:00:00Z: Use JWT RS256
 *
 *     **By:** Data
 *
 *     **What:** Use JWT RS256
 *
 *     **Why:** Matches existing auth pattern
 *
 *     <!-- muster: promoted squad note 0123456789abcdef from refs/notes/squad/data on <commit> -->
 *
 * The closing HTML comment (invisible when rendered) names the note, so a note is never promoted
 * twice, whatever else the file holds.
 */
import type { SquadNote } from '../../shared/contract/notes-types'

/** The heading regex of real entries (spec A). */
export const DECISION_HEADING = /^### (?<ts>\d{4}-\d{2}-\d{2}(?:T[0-9:.-]+(?:Z|[+-]\d{2}:\d{2})?)?): (?<title>.+)$/

/** The header of a decisions.md Muster creates. */
export const DECISIONS_HEADER = '# Decisions\n'

/** Titles longer than this are cut (headings are read in lists). */
const TITLE_MAX = 120

const MARKER = /<!-- muster: promoted squad note ([0-9a-f]{16}) /g

/** Ids of the notes already promoted into `text`. */
export function promotedIds(text: string): Set<string> {
  return new Set([...text.matchAll(MARKER)].map((m) => m[1]!))
}

const asText = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.trim() : v === undefined || v === null || typeof v === 'string' ? null : JSON.stringify(v)

/** The entry for `note`, or why it cannot be one. Lines end with `\n`; the caller converts. */
export function decisionEntry(note: SquadNote): { title: string; text: string } | { reason: string } {
  const d = note.data
  if (!note.agent) return { reason: 'the note has no agent for **By:**' }
  const what = asText(d.decision) ?? asText(d.content) ?? asText(d.topic)
  if (!what) return { reason: 'the note has no decision or content for **What:**' }
  let title = what.split('\n')[0]!.replace(/\s+/g, ' ').trim()
  if (title.length > TITLE_MAX) title = title.slice(0, TITLE_MAX - 1).trimEnd() + '…'
  const heading = `### ${note.timestamp ?? ''}: ${title}`
  if (!DECISION_HEADING.test(heading)) return { reason: `timestamp ${JSON.stringify(note.timestamp)} does not fit a decisions.md heading` }
  const why = asText(d.reasoning) ?? '(no reasoning in the note)'
  const lines = [heading, '', `**By:** ${note.agent}`, '', `**What:** ${what}`, '', `**Why:** ${why}`, '']
  const alternatives = Array.isArray(d.alternatives_considered) ? d.alternatives_considered.map((a) => asText(a)).filter(Boolean) : []
  if (alternatives.length) lines.push(`**Alternatives considered:** ${alternatives.join('; ')}`, '')
  lines.push(`<!-- muster: promoted squad note ${note.id} from ${note.ref} on ${note.commit} -->`)
  return { title, text: lines.join('\n') + '\n' }
}

/**
 * `text` with `entries` appended: one blank line before each entry, the file's line endings kept,
 * a missing final newline added; a new file starts with the `# Decisions` header.
 */
export function appendEntries(text: string, entries: string[]): string {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n'
  let out = text === '' ? DECISIONS_HEADER.replace(/\n/g, eol) : text.endsWith('\n') ? text : text + eol
  for (const e of entries) out += eol + e.replace(/\n/g, eol)
  return out
}
