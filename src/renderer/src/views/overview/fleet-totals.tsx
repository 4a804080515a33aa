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

/** The lint counts' tiles, tinted with their tone when the count is not zero. */
const LINT_TILES: readonly {
  testId: string
  label: string
  count: 'withoutL0' | 'over500' | 'over800'
  tone: 'warning' | 'error'
  sub: string
}[] = [
  { testId: 'total-no-l0', label: 'Without L0', count: 'withoutL0', tone: 'error', sub: 'no status line' },
  { testId: 'total-over-500', label: 'Over 500 lines', count: 'over500', tone: 'warning', sub: 'directives get buried' },
  { testId: 'total-over-800', label: 'Over 800 lines', count: 'over800', tone: 'error', sub: 'must be archived' }
]

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
      {LINT_TILES.map((t) => (
        <Stat
          key={t.testId}
          testId={t.testId}
          label={t.label}
          value={totals[t.count]}
          tone={totals[t.count] ? t.tone : undefined}
          sub={t.sub}
        />
      ))}
      <Stat
        testId="total-last-change"
        label="Last change"
        value={totals.lastChangeAt ? <RelativeTime iso={totals.lastChangeAt} /> : '—'}
        sub={totals.lastChangeProject ?? 'no changes seen'}
      />
    </div>
  )
}
