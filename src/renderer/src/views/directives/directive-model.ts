/**
 * Pure helpers of the Directives screen: its filters as a directive query, test ids, pickup rules
 * and the list of valid targets offered by the send form. Filtering, text matching, ordering and
 * state counts are the shared directive query (`shared/directive-query.ts`), the one the core
 * answers `muse.directives` with.
 */
import type { Directive, DirectiveState, LocatedOccurrence, ProjectStatus } from '../../../../shared/api'
import type { DirectiveQuery } from '../../../../shared/directive-query'

/** The state filter: one state or everything. */
export type StateFilter = DirectiveState | 'all'

/** Filters other than the state (the state counts are computed after these). */
export interface DirectiveFilters {
  project: string
  role: string
  text: string
}

/** The occurrence a directive is best described by: the sender's line, else the receipt. */
export function primaryOccurrence(d: Directive): LocatedOccurrence | null {
  return d.source ?? d.receipt ?? d.occurrences[0] ?? null
}

/** The project a directive was found in (the sender's, when known). */
export function directiveProject(d: Directive): string {
  return primaryOccurrence(d)?.project ?? ''
}

/** `directive-row-<project>-<id>-<target>` with `/` in the target replaced by `_`. */
export function directiveRowTestId(d: Directive): string {
  return `directive-row-${directiveProject(d)}-${d.id}-${d.target.replace(/\//g, '_')}`
}

/** The screen's filters as a directive query ('' and 'all' filter nothing). */
export function toQuery(f: DirectiveFilters, state: StateFilter = 'all'): DirectiveQuery {
  return { project: f.project || null, role: f.role || null, text: f.text || null, state: state === 'all' ? null : state }
}

/** Human form of where a target resolves. */
export function resolutionText(d: Directive): string {
  const r = d.resolution
  if (r.kind === 'role') return `${r.project} · ${r.role}`
  if (r.kind === 'all') return 'every project'
  return `unresolved: ${r.reason}`
}

/**
 * Pickup is possible for a pending directive whose target is one role, and to complete a
 * half-finished one (receipt written, source still 🟡), which needs the sender's line.
 */
export function canPickUp(d: Directive): boolean {
  if (d.resolution.kind !== 'role') return false
  if (d.state === 'pending') return !!primaryOccurrence(d)
  return d.state === 'received' && !!d.source && d.source.mark === 'pending'
}

/** The project whose files hold the 🟡 line a pickup flips (the sender's, or where it was written). */
export function pickupProject(d: Directive): string {
  return (d.source ?? primaryOccurrence(d))?.project ?? ''
}

/**
 * Targets the send form offers: `ALL`, `PROJECT/ROLE` for every role of every project, and bare
 * `ROLE` for the roles of the hub project (a bare target belongs to the hub project).
 */
export function targetOptions(fleet: readonly ProjectStatus[], hubProject: string | null): string[] {
  const out: string[] = ['ALL']
  for (const p of fleet) {
    for (const r of p.roles) {
      if (p.name === hubProject) out.push(r.role.toUpperCase())
    }
  }
  for (const p of fleet) {
    for (const r of p.roles) out.push(`${p.key}/${r.role.toUpperCase()}`)
  }
  return [...new Set(out)]
}
