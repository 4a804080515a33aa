/**
 * The Usage screen's tables: usage per model (tokens of each kind, total, estimate; a model the
 * price table does not know is flagged "not priced") and per day (newest first, the days with
 * usage), and what Muster reads of each harness.
 */
import type { HarnessUsage, PriceTableInfo, UsageRow } from '../../../../shared/api'
import { fullTokens } from '../../../../shared/usage/format'
import { TableHead, type Column } from '../../components/table-head'
import { Estimate } from '../../components/usage-figures'
import { Visible } from '../../components/visible'

/** `2026-12-07` as `Mon, Dec 7`. */
function dayName(day: string): string {
  return new Date(`${day}T12:00:00`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' })
}

/** The four kinds of tokens, hidden together when the card is narrow. */
const KINDS = ['input', 'output', 'cache_write', 'cache_read'] as const
const MODEL_COLUMNS: Column[] = [
  'Model',
  ...['Input', 'Output', 'Cache write', 'Cache read'].map((label) => ({ label, num: true, className: 'usage-kind' })),
  { label: 'Tokens', num: true },
  { label: 'Estimate', num: true }
]
const DAY_COLUMNS: Column[] = ['Day', { label: 'Sessions', num: true }, { label: 'Tokens', num: true }, { label: 'Estimate', num: true }]

/** A row's cells of the four kinds of tokens. */
function KindCells({ tokens }: { tokens: UsageRow['tokens'] }) {
  return (
    <>
      {KINDS.map((k) => (
        <td key={k} className="num usage-kind">
          {fullTokens(tokens[k])}
        </td>
      ))}
    </>
  )
}

/** One row per model, most tokens first, with the window's total. */
export function ModelTable({ rows, total, prices }: { rows: readonly UsageRow[]; total: UsageRow; prices: PriceTableInfo }) {
  return (
    <table className="usage-table usage-models" data-testid="usage-models">
      <TableHead columns={MODEL_COLUMNS} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-testid="usage-model" data-model={r.key}>
            <th scope="row" className="usage-model-name">
              <Visible text={r.key} />
              <span className="muted usage-sessions">
                {r.sessions} session{r.sessions === 1 ? '' : 's'}
              </span>
            </th>
            <KindCells tokens={r.tokens} />
            <td className="num" data-testid="usage-model-total">
              {fullTokens(r.total)}
            </td>
            <td className="num" data-testid="usage-model-usd">
              <Estimate spend={r} prices={prices} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">All models</th>
          <KindCells tokens={total.tokens} />
          <td className="num">{fullTokens(total.total)}</td>
          <td className="num">
            <Estimate spend={total} prices={prices} />
          </td>
        </tr>
      </tfoot>
    </table>
  )
}

/** One row per day with usage, newest first. */
export function DayTable({ rows, prices }: { rows: readonly UsageRow[]; prices: PriceTableInfo }) {
  const used = rows.filter((r) => r.total > 0).reverse()
  return (
    <table className="usage-table usage-day-table" data-testid="usage-day-table">
      <TableHead columns={DAY_COLUMNS} />
      <tbody>
        {used.map((r) => (
          <tr key={r.key} data-testid="usage-day" data-day={r.key}>
            <th scope="row">{dayName(r.key)}</th>
            <td className="num">{r.sessions}</td>
            <td className="num">{fullTokens(r.total)}</td>
            <td className="num">
              <Estimate spend={r} prices={prices} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const STATUS: Record<HarnessUsage['status'], string> = {
  read: 'read',
  'none-found': 'none found yet',
  'no-usage': 'no usage data'
}

/** What Muster reads of each harness: its sessions, none found yet, or no usage it can read (and why). */
export function HarnessList({ harnesses }: { harnesses: readonly HarnessUsage[] }) {
  return (
    <ul className="usage-harnesses rows-divided" data-testid="usage-harnesses">
      {harnesses.map((h) => (
        <li key={h.harness} className={`usage-harness usage-harness-${h.status}`} data-harness={h.harness} data-status={h.status}>
          <span className="usage-harness-name">{h.harness}</span>
          <span className="usage-harness-status">
            {h.status === 'read' ? `${h.sessions} session${h.sessions === 1 ? '' : 's'}` : STATUS[h.status]}
          </span>
          <span className="usage-harness-note muted">{h.note}</span>
        </li>
      ))}
    </ul>
  )
}
