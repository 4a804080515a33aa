/** The header strip of the overview: projects, roles, lint counts and the last change. */
import type { ReactNode } from 'react'
import { RelativeTime } from '../../components/relative-time'
import type { FleetTotals } from './fleet-stats'

function Stat({
  label,
  value,
  tone,
  sub,
  testId
}: {
  label: string
  value: ReactNode
  tone?: 'warning' | 'error'
  sub?: ReactNode
  testId: string
}) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`} data-testid={testId}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      {sub && <span className="stat-sub">{sub}</span>}
    </div>
  )
}

/** Six tiles; counts that need attention are tinted. */
export function FleetTotalsStrip({ totals }: { totals: FleetTotals }) {
  return (
    <div className="stats" aria-label="Fleet totals">
      <Stat
        testId="total-projects"
        label="Projects"
        value={totals.projects}
        sub={totals.missing ? <span className="text-error">{totals.missing} folder missing</span> : 'all folders present'}
      />
      <Stat testId="total-roles" label="Roles" value={totals.roles} sub={`${totals.findings} findings`} />
      <Stat
        testId="total-no-l0"
        label="Without L0"
        value={totals.withoutL0}
        tone={totals.withoutL0 ? 'error' : undefined}
        sub="no status line"
      />
      <Stat
        testId="total-over-500"
        label="Over 500 lines"
        value={totals.over500}
        tone={totals.over500 ? 'warning' : undefined}
        sub="directives get buried"
      />
      <Stat
        testId="total-over-800"
        label="Over 800 lines"
        value={totals.over800}
        tone={totals.over800 ? 'error' : undefined}
        sub="must be archived"
      />
      <Stat
        testId="total-last-change"
        label="Last change"
        value={totals.lastChangeAt ? <RelativeTime iso={totals.lastChangeAt} /> : '—'}
        sub={totals.lastChangeProject ?? 'no changes seen'}
      />
    </div>
  )
}
