/**
 * Decided requests, newest first: what was asked, the outcome and how far it got (delivered, ran,
 * never ran...), who decided (the operator, an allowlist rule, the timeout), why, how long it
 * waited, and any conflicting later decisions (recorded, never applied).
 */
import { useMemo, useState } from 'react'
import { History } from 'lucide-react'
import type { ApprovalItem } from '../../../../shared/api'
import { ALLOWLIST_DECIDER_PREFIX } from '../../../../shared/api'
import { Chip, type ChipTone } from '../../components/chip'
import { RelativeTime } from '../../components/relative-time'
import { EmptyState } from '../../components/state-views'
import { deciderLabel, displaySummary, formatWait, STATE_LABEL, waitedMs } from './approval-format'
import { ForgedList } from './forged-list'
import { stageWords } from '../../../../shared/approvals/stage-words'
import { Visible } from '../../components/visible'
import { TableHead } from '../../components/table-head'

const HISTORY_COLUMNS = ['Decided', 'Agent', 'Project', 'Request', 'Outcome', 'By', 'Waited']

const TONE: Record<ApprovalItem['state'], ChipTone> = {
  pending: 'neutral',
  allow: 'ok',
  deny: 'error',
  timeout: 'warning',
  abandoned: 'warning',
  expired: 'warning',
  withdrawn: 'warning'
}

/** Which decisions the history shows. */
type Who = 'all' | 'people' | 'rules' | 'nobody'

function byWho(item: ApprovalItem, who: Who): boolean {
  if (who === 'all') return true
  const d = item.decision
  const rule = !!d && d.decided_by.startsWith(ALLOWLIST_DECIDER_PREFIX)
  if (who === 'rules') return rule
  if (who === 'nobody')
    return item.state === 'timeout' || item.state === 'abandoned' || item.state === 'expired' || item.state === 'withdrawn'
  return !!d && !rule && d.decision !== 'timeout'
}

function Conflicts({ item }: { item: ApprovalItem }) {
  if (!item.conflicts.length) return null
  // a withdrawn request has no first decision: every decision came after the withdrawal
  const first = item.decision ?? item.receipts?.find((r) => r.stage === 'withdrawn') ?? item.conflicts[0]!
  return (
    <ul className="appr-conflicts" data-testid="approval-conflicts">
      {item.conflicts.map((c) => (
        <li key={c.id}>
          <Chip tone="warning">conflict</Chip> <Visible text={deciderLabel(c)} /> also decided <strong>{c.decision}</strong>{' '}
          {formatWait(Date.parse(c.created_at) - Date.parse(first.created_at))} later
          {c.reason ? (
            <>
              : <Visible text={c.reason} />
            </>
          ) : (
            ''
          )}{' '}
          <span className="muted">
            {item.decision ? '(not applied: the first decision wins)' : '(not applied: the request was withdrawn first)'}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** The history table with a filter on who decided. */
export function HistoryList({ items }: { items: readonly ApprovalItem[] }) {
  const [who, setWho] = useState<Who>('all')
  const shown = useMemo(() => items.filter((i) => byWho(i, who)), [items, who])
  if (!items.length) {
    return (
      <EmptyState icon={<History size={18} />} title="No decisions yet">
        Decided requests appear here with who decided, when and why.
      </EmptyState>
    )
  }
  return (
    <div className="appr-history">
      <div className="appr-history-bar">
        <label className="appr-inline-label">
          Decided by{' '}
          <select className="input select" value={who} onChange={(e) => setWho(e.target.value as Who)} data-testid="history-filter">
            <option value="all">Anyone</option>
            <option value="people">Operators</option>
            <option value="rules">Allowlist rules</option>
            <option value="nobody">Nobody (timed out, expired)</option>
          </select>
        </label>
        <span className="muted">
          {shown.length} of {items.length}
        </span>
      </div>
      <div className="appr-history-scroll">
        <table className="appr-history-table" data-testid="approval-history">
          <TableHead columns={HISTORY_COLUMNS} />
          <tbody>
            {shown.map((i) => (
              <tr key={i.id} data-testid={`history-row-${i.correlation_id}`} data-state={i.state}>
                <td>
                  <RelativeTime iso={i.decision?.created_at ?? i.expires_at ?? i.created_at} />
                </td>
                <td className="mono">
                  <Visible text={i.agent} />
                </td>
                <td>
                  <Visible text={i.project} />
                </td>
                <td className="appr-history-request">
                  <span className="mono ellipsis" title={i.summary}>
                    <Visible text={displaySummary(i)} />
                  </span>
                  {i.decision?.reason &&
                    i.decision.decision !== 'timeout' &&
                    !i.decision.decided_by.startsWith(ALLOWLIST_DECIDER_PREFIX) && (
                      <span className="appr-reason">
                        “<Visible text={i.decision.reason} />”
                      </span>
                    )}
                  <Conflicts item={i} />
                  <ForgedList item={i} />
                </td>
                <td>
                  <Chip tone={TONE[i.state]}>{STATE_LABEL[i.state]}</Chip>
                  {i.stage && (
                    <span className="appr-stage muted" data-testid="approval-stage" data-stage={i.stage}>
                      {' '}
                      {stageWords(i)}
                    </span>
                  )}
                </td>
                <td className="ellipsis" title={i.decision?.decided_by ?? 'no decision was recorded: the hook stopped waiting without one'}>
                  {i.decision ? <Visible text={deciderLabel(i.decision)} /> : <span className="muted">nobody</span>}
                </td>
                <td className="num">{i.decision ? formatWait(waitedMs(i, 0)) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
