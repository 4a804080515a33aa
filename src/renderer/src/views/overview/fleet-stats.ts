/** Totals for the overview's header strip, computed from `fleet.status`. */
import type { ProjectStatus } from '../../../../shared/api'

/** The numbers the header strip shows. */
export interface FleetTotals {
  projects: number
  missing: number
  roles: number
  withoutL0: number
  /** Role files over 500 lines (warning and error levels). */
  over500: number
  /** Role files over 800 lines (error level). */
  over800: number
  findings: number
  lastChangeAt: string | null
  lastChangeProject: string | null
}

/** Sums the fleet into header totals. */
export function fleetTotals(fleet: readonly ProjectStatus[]): FleetTotals {
  const t: FleetTotals = {
    projects: fleet.length,
    missing: 0,
    roles: 0,
    withoutL0: 0,
    over500: 0,
    over800: 0,
    findings: 0,
    lastChangeAt: null,
    lastChangeProject: null
  }
  for (const p of fleet) {
    if (!p.exists) t.missing++
    t.findings += p.findings.length
    for (const r of p.roles) {
      t.roles++
      if (!r.l0) t.withoutL0++
      if (r.sizeLevel !== 'ok') t.over500++
      if (r.sizeLevel === 'error') t.over800++
    }
    if (p.lastChangeAt && (!t.lastChangeAt || p.lastChangeAt > t.lastChangeAt)) {
      t.lastChangeAt = p.lastChangeAt
      t.lastChangeProject = p.name
    }
  }
  return t
}

/** True when a project matches the overview's filter text (name, key, path, roles, L0 text). */
export function matchesFilter(p: ProjectStatus, filter: string): boolean {
  const q = filter.trim().toLowerCase()
  if (!q) return true
  const hay = [p.name, p.key, p.path, ...p.roles.flatMap((r) => [r.role, r.l0?.body ?? ''])].join('\n').toLowerCase()
  return hay.includes(q)
}
