/**
 * The Overview's "Usage": today's and the last 7 days' tokens and estimated spend, the 7 days as
 * columns, and per project, agent and harness as bars (7 days, with today's figure beside). Every
 * dollar figure is an estimate with the price table's date; tokens of unknown models are counted
 * and flagged; a harness that records no usage Muster can read says so instead of a 0. Hidden
 * until some usage was recorded in the last 7 days; the Usage screen has the rest.
 */
import { ChevronRight } from 'lucide-react'
import type { HarnessUsage, PriceTableInfo, UsageRow, UsageSummary } from '../../../../shared/api'
import { shortTokens, usd } from '../../../../shared/usage/format'
import { useUsage } from '../../api/usage-queries'
import { DayColumns, GroupBars, type GroupBar } from '../../components/usage-charts'
import { Estimate, PriceNote, TokenCount } from '../../components/usage-figures'
import { Visible } from '../../components/visible'

/** Bars per group before "and N more". */
const SHOWN = 5

/** A group's bar: 7 days' tokens and estimate, and today's. */
function barOf(r: UsageRow, prices: PriceTableInfo, today: string, empty: string): GroupBar {
  const t = r.days.find((d) => d.day === today)
  return {
    key: r.key,
    name: r.key ? <Visible text={r.key} /> : <span className="muted">{empty}</span>,
    value: r.total,
    figures: (
      <>
        {shortTokens(r.total)} · <Estimate spend={r} prices={prices} />
      </>
    ),
    aside: t?.total ? `today ${shortTokens(t.total)}${t.usd ? ` · ~${usd(t.usd)}` : ''}` : 'none today'
  }
}

/** The harnesses keeping no usage Muster reads, as bars that say so. */
function noUsageBars(harnesses: readonly HarnessUsage[]): GroupBar[] {
  return harnesses
    .filter((h) => h.status === 'no-usage')
    .map((h) => ({ key: h.harness, name: h.harness, value: 0, figures: null, note: <span title={h.note}>no usage data</span> }))
}

/** One group's bars, titled. */
function Group({
  title,
  s,
  today,
  empty,
  extra = []
}: {
  title: string
  s: UsageSummary
  today: string
  empty: string
  extra?: GroupBar[]
}) {
  const bars = s.rows.map((r) => barOf(r, s.prices, today, empty))
  return (
    <div className="usage-group">
      <h3>{title}</h3>
      <GroupBars
        rows={[...bars.slice(0, SHOWN), ...extra]}
        label={`Usage per ${title.toLowerCase()}, last 7 days`}
        testId={`usage-by-${s.by}`}
      />
      {bars.length > SHOWN && <p className="muted usage-more">and {bars.length - SHOWN} more</p>}
    </div>
  )
}

/** The panel; nothing until some usage was recorded in the last 7 days. */
export function UsagePanel() {
  const byProject = useUsage('7d', 'project')
  const byAgent = useUsage('7d', 'agent')
  const byHarness = useUsage('7d', 'harness')
  const p = byProject.data
  const a = byAgent.data
  const h = byHarness.data
  if (!p || !a || !h || p.total.total === 0) return null
  const days = p.total.days
  const today = days[days.length - 1]
  return (
    <section className="row-panel usage-panel" data-testid="usage-panel" aria-label="Usage">
      <div className="needs-head">
        <h2>Usage</h2>
        <span className="needs-summary usage-summary" data-testid="usage-today">
          <span className="muted">Today</span> <TokenCount n={today?.total ?? 0} />
          {today?.usd ? <span title={`Estimate from the price table of ${p.prices.date}`}>· ~{usd(today.usd)}</span> : null}
        </span>
        <span className="needs-summary usage-summary" data-testid="usage-week">
          <span className="muted">Last 7 days</span> <TokenCount n={p.total.total} /> · <Estimate spend={p.total} prices={p.prices} />
        </span>
        <a className="usage-link" href="#/usage" data-testid="usage-open">
          By model and day <ChevronRight size={14} aria-hidden />
        </a>
      </div>
      <div className="usage-card">
        <div className="usage-days">
          <h3>Tokens per day</h3>
          <DayColumns days={days} today={today?.day} label="Tokens per day, last 7 days" testId="usage-days" />
        </div>
        <Group title="Projects" s={p} today={today?.day ?? ''} empty="no project" />
        <Group title="Agents" s={a} today={today?.day ?? ''} empty="no agent named" />
        <Group title="Harnesses" s={h} today={today?.day ?? ''} empty="unknown" extra={noUsageBars(h.harnesses)} />
        <PriceNote prices={p.prices} spend={p.total} />
      </div>
    </section>
  )
}
