/**
 * Pure helpers of the Directives screen: filtering, counting, ordering, test ids and the list of
 * valid targets offered by the send form.
 */
import type { Directive, DirectiveState, LocatedOccurrence, ProjectStatus } from '../../../../shared/api'

/** The state filter: one state or everything. */
export type StateFilter = DirectiveState | 'all'

/** Filters other than the state (the state counts are computed after these). */
export interface DirectiveFilters {
  project: string
  role: string
  text: string
}

/** States in the order the filter and the list show them. */
export const STATES: readonly DirectiveState[] = ['pending', 'received', 'delivered', 'untracked']

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

/** Project and role names a directive touches (sender and resolved target), lower-cased. */
function touches(d: Directive): { projects: Set<string>; roles: Set<string> } {
  const projects = new Set<string>()
  const roles = new Set<string>()
  for (const o of d.occurrences) {
    projects.add(o.project)
    roles.add(o.role.toLowerCase())
  }
  if (d.resolution.kind === 'role') {
    projects.add(d.resolution.project)
    roles.add(d.resolution.role.toLowerCase())
  }
  return { projects, roles }
}

/** True when `d` passes the project, role and text filters. */
export function matchesFilters(d: Directive, f: DirectiveFilters): boolean {
  if (f.project || f.role) {
    const t = touches(d)
    if (f.project && !t.projects.has(f.project)) return false
    if (f.role && !t.roles.has(f.role.toLowerCase())) return false
  }
  const q = f.text.trim().toLowerCase()
  if (!q) return true
  const src = primaryOccurrence(d)
  const hay = [d.id, d.target, d.title, src?.body ?? '', src?.file ?? '', src?.role ?? '', src?.project ?? '', src?.date ?? ''].join('\n').toLowerCase()
  return q.split(/\s+/).every((term) => hay.includes(term))
}

/** How many directives are in each state, plus the total. */
export function countStates(list: readonly Directive[]): Record<StateFilter, number> {
  const counts: Record<StateFilter, number> = { all: list.length, pending: 0, received: 0, delivered: 0, untracked: 0 }
  for (const d of list) counts[d.state] += 1
  return counts
}

function idNumber(id: string): number {
  return Number(/^S(\d+)/.exec(id)?.[1] ?? 0)
}

/** Pending first (they need the operator), then by state, newest S-number first. */
export function sortDirectives(list: readonly Directive[]): Directive[] {
  return [...list].sort(
    (a, b) => STATES.indexOf(a.state) - STATES.indexOf(b.state) || idNumber(b.id) - idNumber(a.id) || a.target.localeCompare(b.target)
  )
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
