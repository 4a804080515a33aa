/**
 * The budgets in force on the Usage screen: each budget's label, how much of it is used (a bar,
 * the figures, the share), whether it is crossed and since when, the sessions it holds, and
 * whether it gates at all (an unsigned budget gates nothing). Budgets are set with `muster budget
 * set`; the one a link names (`#/usage?budget=ID`, the needs-you item of a crossed budget) is
 * marked and scrolled to.
 */
import { useEffect, useRef } from 'react'
import { Gauge } from 'lucide-react'
import type { Budget } from '../../../../shared/api'
import { fullTokens, usd } from '../../../../shared/usage/format'
import { relativeTime } from '../../lib/format'
import { EmptyState } from '../../components/state-views'
import { Visible } from '../../components/visible'

/** How much of a budget is used, 0 to 1 (and over), and the words of its figures. */
export function budgetUse(b: Budget): { share: number; used: string; limit: string } {
  if (b.tokens !== null)
    return { share: b.used.total / b.tokens, used: `${fullTokens(b.used.total)} tokens`, limit: `${fullTokens(b.tokens)} tokens` }
  const spent = b.used.usd ?? 0
  return { share: spent / (b.usd ?? 1), used: `~${usd(spent)}`, limit: `${usd(b.usd)} (estimate)` }
}

function BudgetRow({ b, selected, now }: { b: Budget; selected: boolean; now: number }) {
  const ref = useRef<HTMLLIElement>(null)
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: 'nearest' })
  }, [selected])
  const u = budgetUse(b)
  const pct = Math.round(u.share * 100)
  const state = !b.trusted ? 'untrusted' : b.crossed ? 'crossed' : u.share >= 0.8 ? 'near' : 'ok'
  const held = b.held.filter((h) => !h.released)
  return (
    <li
      ref={ref}
      className={`budget-row budget-${state}${selected ? ' selected' : ''}`}
      data-testid="budget-row"
      data-budget={b.id}
      data-state={state}
      aria-current={selected ? 'true' : undefined}
    >
      <div className="budget-head">
        <span className="budget-label">
          <Visible text={b.label} />
        </span>
        <span className="budget-share" data-testid="budget-share">
          {pct}%
        </span>
      </div>
      <div
        className="budget-meter"
        role="meter"
        aria-label={`${b.label}: used`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, pct)}
        aria-valuetext={`${u.used} of ${u.limit}`}
      >
        <span className="budget-fill" style={{ width: `${Math.min(100, Math.max(0, u.share * 100))}%` }} />
      </div>
      <p className="budget-detail" data-testid="budget-detail">
        {u.used} of {u.limit}
        {b.used.unpriced_tokens > 0 && b.usd !== null && (
          <span className="usage-unpriced"> · {fullTokens(b.used.unpriced_tokens)} tokens not priced, not counted in dollars</span>
        )}
        {!b.trusted ? (
          <span className="budget-untrusted"> · gates nothing: {b.untrusted_reason ?? 'not signed by a trusted operator key'}</span>
        ) : b.crossed ? (
          <span className="budget-crossed">
            {' '}
            · crossed{b.crossed_since ? ` ${relativeTime(b.crossed_since, now)}` : ''}
            {held.length > 0 &&
              `: ${held.length === 1 ? 'its session’s' : `${held.length} sessions’`} tool calls wait for you (${held.map((h) => h.agent ?? `session ${h.session_id.slice(0, 8)}`).join(', ')})`}
          </span>
        ) : null}
      </p>
    </li>
  )
}

/** Every budget, or how to set one. */
export function BudgetsList({ budgets, selected, now }: { budgets: readonly Budget[]; selected: number | null; now: number }) {
  if (!budgets.length)
    return (
      <EmptyState icon={<Gauge size={18} />} title="No budgets">
        <p className="muted">
          Set one with <code>muster budget set --day --tokens 2000000</code> (or <code>--session ID</code>, <code>--agent A</code>,{' '}
          <code>--project P</code>; <code>--usd 5</code>): once crossed, the sessions it covers wait for you on every tool call.
        </p>
      </EmptyState>
    )
  return (
    <>
      <p className="usage-note muted" data-testid="budgets-note">
        A budget counts this machine’s sessions, the ones its gate can hold (an agent’s, a project’s and the fleet’s since local midnight);
        other machines’ sessions count on their own machines. Set with <code>muster budget set</code>.
      </p>
      <ul className="budgets-list" data-testid="budgets-list">
        {budgets.map((b) => (
          <BudgetRow key={b.id} b={b} selected={b.id === selected} now={now} />
        ))}
      </ul>
    </>
  )
}
