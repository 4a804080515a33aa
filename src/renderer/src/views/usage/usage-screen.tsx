/**
 * The Usage screen (`#/usage`, `?budget=ID` marks a budget): tokens and estimated spend over a
 * window (today, the last 7 or 30 days, everything recorded) per day, as columns and a table, and
 * per model; what Muster reads of each harness; and the budgets in force with how close each is.
 * Live: a watching service pushes `usage.changed` when new usage was read or a budget changed.
 */
import { useState } from 'react'
import { BarChart3 } from 'lucide-react'
import type { PriceTableInfo, UsageRow } from '../../../../shared/api'
import { useBudgets, useUsage, type UsageWindow } from '../../api/usage-queries'
import { RefreshButton } from '../../components/refresh-button'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { DayColumns } from '../../components/usage-charts'
import { Estimate, PriceNote, TokenCount } from '../../components/usage-figures'
import { useNow } from '../../hooks/use-now'
import { BudgetsList } from './budgets-list'
import { budgetFromHash } from './usage-route'
import { DayTable, HarnessList, ModelTable } from './usage-tables'

const WINDOWS: readonly { id: UsageWindow; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: '7d', label: '7 days' },
  { id: '30d', label: '30 days' },
  { id: 'all', label: 'All' }
]

/** The window picker: a radio group of segments. */
function WindowPicker({ value, onChange }: { value: UsageWindow; onChange: (w: UsageWindow) => void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Window" data-testid="usage-window">
      {WINDOWS.map((w) => (
        <label key={w.id} className={`segment${value === w.id ? ' active' : ''}`} data-testid={`usage-window-${w.id}`}>
          <input type="radio" name="usage-window" value={w.id} checked={value === w.id} onChange={() => onChange(w.id)} />
          <span>{w.label}</span>
        </label>
      ))}
    </div>
  )
}

/** The window's headline figures. */
function Totals({ total, sessions, skipped, prices }: { total: UsageRow; sessions: number; skipped: number; prices: PriceTableInfo }) {
  return (
    <dl className="usage-totals" data-testid="usage-totals">
      <div>
        <dt>Tokens</dt>
        <dd data-testid="usage-total-tokens">
          <TokenCount n={total.total} word={false} />
        </dd>
      </div>
      <div>
        <dt>Estimated spend</dt>
        <dd data-testid="usage-total-usd">
          <Estimate spend={total} prices={prices} />
        </dd>
      </div>
      <div>
        <dt>Sessions</dt>
        <dd data-testid="usage-total-sessions">{sessions}</dd>
      </div>
      {skipped > 0 && (
        <div>
          <dt>Unreadable lines skipped</dt>
          <dd>{skipped}</dd>
        </div>
      )}
    </dl>
  )
}

/** The Usage screen. */
export function UsageScreen() {
  const [win, setWin] = useState<UsageWindow>('7d')
  const byModel = useUsage(win, 'model')
  const byDay = useUsage(win, 'day')
  const budgets = useBudgets()
  const now = useNow()
  const m = byModel.data
  const d = byDay.data
  // a window of days has a column per day; "all" has the days with usage
  const days = d ? (d.total.days.length ? d.total.days : d.rows.map((r) => ({ day: r.key, total: r.total, usd: r.usd }))) : []
  const today = d?.total.days[d.total.days.length - 1]?.day

  return (
    <section className="screen usage-screen" data-testid="screen-usage">
      <ScreenHeader
        title="Usage"
        description="Tokens and estimated spend of every session your harnesses recorded on this machine or reported through a hub, per day and per model, and the budgets that hold a session past its limit."
        actions={
          <>
            <WindowPicker value={win} onChange={setWin} />
            <RefreshButton query={byModel} label="Refresh" title="Refresh now (new usage also arrives live)" />
          </>
        }
      />
      {!m || !d ? (
        byModel.error || byDay.error ? (
          <ErrorState
            title="Could not read usage"
            error={byModel.error ?? byDay.error}
            onRetry={() => void byModel.refetch()}
            retrying={byModel.isFetching}
          />
        ) : (
          <LoadingState label="Reading usage…" />
        )
      ) : (
        <>
          <Totals total={m.total} sessions={m.total.sessions} skipped={m.skipped} prices={m.prices} />
          {m.total.total === 0 ? (
            <EmptyState icon={<BarChart3 size={18} />} title="No usage recorded in this window">
              <p className="muted">
                Muster reads the harnesses’ own records on this machine, and other machines’ reports through the hubs.
              </p>
            </EmptyState>
          ) : (
            <div className="usage-sections">
              <section className="usage-section usage-per-day" aria-labelledby="usage-day-h">
                <h2 id="usage-day-h">Per day</h2>
                {days.length > 1 && <DayColumns days={days} today={today} label="Tokens per day" testId="usage-screen-days" />}
                <DayTable rows={d.rows} prices={d.prices} />
              </section>
              <section className="usage-section usage-per-model" aria-labelledby="usage-model-h">
                <h2 id="usage-model-h">Per model</h2>
                <ModelTable rows={m.rows} total={m.total} prices={m.prices} />
              </section>
            </div>
          )}
          <PriceNote prices={m.prices} spend={m.total} />
          <section className="usage-section" aria-labelledby="usage-budgets-h">
            <h2 id="usage-budgets-h">Budgets</h2>
            {budgets.data ? (
              <BudgetsList budgets={budgets.data.budgets} selected={budgetFromHash(window.location.hash)} now={now} />
            ) : budgets.error ? (
              <ErrorState
                title="Could not read the budgets"
                error={budgets.error}
                onRetry={() => void budgets.refetch()}
                retrying={budgets.isFetching}
              />
            ) : (
              <LoadingState label="Reading budgets…" />
            )}
          </section>
          <section className="usage-section" aria-labelledby="usage-harnesses-h">
            <h2 id="usage-harnesses-h">Harnesses</h2>
            <HarnessList harnesses={m.harnesses} />
          </section>
        </>
      )}
    </section>
  )
}
