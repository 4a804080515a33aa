/**
 * The one directive query: filters, text matching, ordering and per-state counts over the
 * contract's types. The core answers `muse.directives` with it (so the CLI and the HTTP API do),
 * and the Directives screen filters its live list with it while the operator types, without a
 * round trip per keystroke. Pure data logic, no Node: the renderer imports it from here.
 *
 * Text matching: the text is split on whitespace into terms; a directive matches when every term
 * occurs, ignoring case and VS16 (U+FE0F), in its id, its target, its title, or any of its
 * occurrences' title, body, status text, date, project, role or file name.
 */
import { DirectiveStateSchema, type Directive, type DirectiveState, type Notice } from './contract/muse'
import { DIRECTIVE_ID_RE } from './directive-id'

/** Every directive state, in the order lists and filters show them (pending first: they need the operator). */
export const DIRECTIVE_STATES: readonly DirectiveState[] = DirectiveStateSchema.options

/** A notice with the project whose role file holds it (as `muse.directives` returns it). */
export type LocatedNotice = Notice & { project: string }

/** What to keep; an absent or empty field does not filter. */
export interface DirectiveQuery {
  state?: DirectiveState | null
  /** Project name (case-insensitive): the sender's, the receipt's or the resolved target's. */
  project?: string | null
  /** Role name (case-insensitive): a role whose file holds an occurrence, or the resolved target role. */
  role?: string | null
  /** Canonical target as listed (`MUSE/BUILD`, `ALL`); the core resolves what the operator typed into this. */
  target?: string | null
  /** Whitespace-separated terms that must all occur (see the header). */
  text?: string | null
}

const fold = (s: string): string => s.replace(/\uFE0F/g, '').toLowerCase()

/** The normalised terms of a text filter; [] matches everything. */
export function textTerms(text: string | null | undefined): string[] {
  return text
    ? fold(text)
        .split(/\s+/)
        .filter((t) => t.length > 0)
    : []
}

/**
 * The numeric part of a directive id (`S040v3` -> 40), 0 when it is no id within the bound
 * (`shared/directive-id.ts`; `S` + 400 digits): such an id neither breaks the numbering of the next
 * ids nor sorts first.
 */
export function directiveNumber(id: string): number {
  return DIRECTIVE_ID_RE.test(id) ? Number(/^S(\d+)/.exec(id)![1]) : 0
}

/** The text a directive is searched in (see the header), normalised. */
function haystack(d: Directive): string {
  const parts = [d.id, d.target, d.title]
  for (const o of d.occurrences) parts.push(o.title, o.body, o.statusText, o.date ?? '', o.project, o.role, o.file)
  return fold(parts.join('\n'))
}

/** True when every term occurs in the directive's searchable text. */
export function matchesText(d: Directive, terms: readonly string[]): boolean {
  if (terms.length === 0) return true
  const hay = haystack(d)
  return terms.every((t) => hay.includes(t))
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** True when `d` passes every filter of `q` (`terms` = the pre-split text, for repeated calls). */
export function matchesDirective(d: Directive, q: DirectiveQuery, terms: readonly string[] = textTerms(q.text)): boolean {
  if (q.state && d.state !== q.state) return false
  const res = d.resolution.kind === 'role' ? d.resolution : null
  if (q.project && !(d.occurrences.some((o) => same(o.project, q.project!)) || (res && same(res.project, q.project)))) return false
  if (q.role && !(d.occurrences.some((o) => same(o.role, q.role!)) || (res && same(res.role, q.role)))) return false
  if (q.target && !same(d.target, q.target)) return false
  return matchesText(d, terms)
}

/** List order: by state (pending first), then the newest S-number first, then by target and key. */
export function compareDirectives(a: Directive, b: Directive): number {
  return (
    DIRECTIVE_STATES.indexOf(a.state) - DIRECTIVE_STATES.indexOf(b.state) ||
    directiveNumber(b.id) - directiveNumber(a.id) ||
    a.target.localeCompare(b.target) ||
    a.key.localeCompare(b.key)
  )
}

/** The directives in list order (a new array). */
export function sortDirectives(list: readonly Directive[]): Directive[] {
  return [...list].sort(compareDirectives)
}

/** The directives that pass `q`, in list order. */
export function queryDirectives(list: readonly Directive[], q: DirectiveQuery): Directive[] {
  const terms = textTerms(q.text)
  return sortDirectives(list.filter((d) => matchesDirective(d, q, terms)))
}

/** How many directives are in each state, plus the total (`all`). */
export function countStates(list: readonly Directive[]): Record<DirectiveState | 'all', number> {
  const counts = Object.fromEntries([['all', list.length], ...DIRECTIVE_STATES.map((s) => [s, 0])]) as Record<
    DirectiveState | 'all',
    number
  >
  for (const d of list) counts[d.state] += 1
  return counts
}

/**
 * The notices that pass `q`: project and text as for directives; role = the role holding the notice
 * or its sender or recipient; state `pending` keeps the 🟡 notices and any other state the rest.
 * A target filter does not apply (notices name roles, not targets).
 */
export function queryNotices<N extends LocatedNotice>(list: readonly N[], q: DirectiveQuery): N[] {
  const terms = textTerms(q.text)
  return list.filter((n) => {
    if (q.state && (q.state === 'pending') !== (n.mark === 'pending')) return false
    if (q.project && !same(n.project, q.project)) return false
    if (q.role && ![n.role, n.from, n.to].some((r) => same(r, q.role!))) return false
    if (terms.length === 0) return true
    const hay = fold([n.title, n.body, n.statusText, n.from, n.to, n.date, n.project, n.role, n.file].join('\n'))
    return terms.every((t) => hay.includes(t))
  })
}
