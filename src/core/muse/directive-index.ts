/**
 * Cross-project view of directives: resolves each occurrence's target (bare `ROLE` -> hub project,
 * `PROJECT/ROLE` -> that project, `ALL` -> every project), groups occurrences by (id, resolved
 * target) and derives the state: delivered (✅ at a source), received (the target's file holds a
 * receipt), pending (🟡 somewhere, no receipt), untracked (no mark at all).
 */
import type { Directive, DirectiveMark, DirectiveOccurrence, DirectiveState, LocatedOccurrence, Resolution } from '../../shared/api'
import { directiveNumber } from '../../shared/directive-query'
import type { FleetView, ScannedProject } from './fleet-scan'

/** `ROLE`, `PROJECT/ROLE` or `ALL`; a role may be any name the role list shows (`产品`), as a role file's name may. */
const TARGET = /^(?:ALL|[A-Z][A-Z0-9_-]*(?:\/[\p{L}\p{N}][\p{L}\p{N}\p{M}_.-]*)?|[\p{L}\p{N}][\p{L}\p{N}\p{M}_.-]*)$/u

/** Upper-cases a target as typed and checks its shape (`ROLE`, `PROJECT/ROLE`, `ALL`); null if malformed. */
export function normaliseTarget(target: string): string | null {
  const t = target.trim().toUpperCase()
  return TARGET.test(t) ? t : null
}

/** Resolutions per fleet view and target as written: a fleet repeats a few targets thousands of times. */
const resolutions = new WeakMap<FleetView, Map<string, Resolution>>()

/** Resolves a target against the fleet. */
export function resolveTarget(target: string, fleet: FleetView): Resolution {
  let known = resolutions.get(fleet)
  if (!known) resolutions.set(fleet, (known = new Map()))
  let res = known.get(target)
  if (!res) known.set(target, (res = resolveUncached(target, fleet)))
  return res
}

function resolveUncached(target: string, fleet: FleetView): Resolution {
  const t = normaliseTarget(target)
  if (!t) return { kind: 'unresolved', reason: `'${target}' is not ROLE, PROJECT/ROLE or ALL` }
  if (t === 'ALL') return { kind: 'all' }
  let projectKey: string
  let role: string
  if (t.includes('/')) {
    ;[projectKey, role] = t.split('/') as [string, string]
  } else {
    if (!fleet.hub.project)
      return { kind: 'unresolved', reason: `bare target ${t} needs a hub project (none detected; mark one with muse.setHub)` }
    const hub = fleet.projects.find((p) => p.project.name === fleet.hub.project)
    if (!hub) return { kind: 'unresolved', reason: `hub project ${fleet.hub.project} is not registered` }
    projectKey = hub.project.key
    role = t
  }
  const p = fleet.projects.find((x) => x.project.key === projectKey)
  if (!p) return { kind: 'unresolved', reason: `no registered project with key ${projectKey}` }
  const file = p.roles.find((r) => r.role === role.toLowerCase())
  if (!file) return { kind: 'unresolved', reason: `project ${p.project.name} has no role file ${role.toLowerCase()}.md` }
  return { kind: 'role', project: p.project.name, key: p.project.key, role: file.role, file: file.file }
}

/**
 * The resolution of an occurrence's target: as written, or, when none is written (a table row or
 * an announcement heading in the receiving role's own file), the role whose file holds it.
 */
export function resolveOccurrence(d: { target: string; role: string; file: string }, sp: ScannedProject, fleet: FleetView): Resolution {
  if (d.target) return resolveTarget(d.target, fleet)
  return { kind: 'role', project: sp.project.name, key: sp.project.key, role: d.role, file: d.file }
}

/** Canonical text of a resolution (`MUSE/BUILD`, `ALL`) or the target as written when unresolved. */
export function canonicalTarget(res: Resolution, written: string): string {
  if (res.kind === 'role') return `${res.key}/${res.role.toUpperCase()}`
  if (res.kind === 'all') return 'ALL'
  return written.toUpperCase()
}

/** True when `o` sits in the target's own file (a receipt or the MCP server's inbox form). */
export function isAtTarget(o: { role: string; project: string }, res: Resolution): boolean {
  return res.kind === 'role' && res.project === o.project && res.role === o.role
}

/**
 * True when an occurrence at the target counts as received: in a received section, or ✅. A row
 * or announcement is the target's own record: its ✅ says received, its 🟡 says still to do.
 */
export function isReceipt(o: DirectiveOccurrence): boolean {
  if (o.form === 'announce') return o.mark === 'done'
  // a row without a status in the received table is received; 🟡 in it is still to do
  if (o.form === 'row') return o.mark === 'done' || (o.mark === 'none' && o.sectionKind === 'received')
  return o.sectionKind === 'received' || o.mark === 'done'
}

/** Groups every occurrence of the fleet into logical directives. */
export function collectDirectives(fleet: FleetView): Directive[] {
  const groups = new Map<string, Directive>()
  // resolutions are shared (see resolveTarget): a fleet's thousands of occurrences have few canonical targets
  const canonical = new Map<Resolution, string>()
  for (const sp of fleet.projects) {
    for (const role of sp.roles) {
      for (const d of role.directives) {
        const o: LocatedOccurrence = { ...d, project: sp.project.name }
        const res = resolveOccurrence(d, sp, fleet)
        let target = res.kind === 'unresolved' ? undefined : canonical.get(res)
        if (target === undefined) {
          target = canonicalTarget(res, d.target)
          if (res.kind !== 'unresolved') canonical.set(res, target)
        }
        const key = res.kind === 'unresolved' ? `${d.id}→${target}@${sp.project.key}` : `${d.id}→${target}`
        let g = groups.get(key)
        if (!g)
          groups.set(
            key,
            (g = { key, id: d.id, target, resolution: res, state: 'untracked', title: '', source: null, receipt: null, occurrences: [] })
          )
        g.occurrences.push(o)
      }
    }
  }
  for (const g of groups.values()) finish(g)
  // each id's number once, not once per comparison
  return [...groups.values()]
    .map((g) => ({ g, n: idNumber(g.id) }))
    .sort((a, b) => b.n - a.n || a.g.key.localeCompare(b.g.key))
    .map((x) => x.g)
}

/** The marks that are a state of their own. */
const OWN_STATES = { skipped: 'skipped', frozen: 'frozen', active: 'active' } as const satisfies Partial<
  Record<DirectiveMark, DirectiveState>
>

function finish(g: Directive): void {
  const atTarget = (o: LocatedOccurrence) => (g.resolution.kind === 'all' ? o.sectionKind === 'received' : isAtTarget(o, g.resolution))
  const sources = g.occurrences.filter((o) => !atTarget(o))
  const receipts = g.occurrences.filter((o) => atTarget(o) && isReceipt(o))
  g.source = sources.find((o) => o.mark === 'pending') ?? sources[0] ?? null
  g.receipt = receipts[0] ?? null
  // a 🚫 / 🔒 / 🟢 says what became of it, the target's own word first: never shown as "received"
  const said = [...receipts, ...g.occurrences].find((o) => o.mark in OWN_STATES)
  let state: DirectiveState = 'untracked'
  if (said) state = OWN_STATES[said.mark as keyof typeof OWN_STATES]
  else if (sources.some((o) => o.mark === 'done')) state = 'delivered'
  else if (receipts.length > 0) state = 'received'
  else if (g.occurrences.some((o) => o.mark === 'pending')) state = 'pending'
  g.state = state
  g.title = g.source?.title || g.receipt?.title || g.occurrences[0]!.title
}

/** The numeric part of an id (`S040v3` -> 40); one definition, shared with the directive query. */
export const idNumber = directiveNumber
