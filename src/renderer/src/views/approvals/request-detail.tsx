/**
 * The selected request: who asks for what, where, for how long already, a readable preview of the
 * call, and the decision: approve or deny with an optional reason, approve every identical
 * request, or approve and always allow (the proposed rule is shown before it is saved).
 */
import { threadLink, usageLink } from '../../../../shared/links'
import { useState, type RefObject } from 'react'
import { AlarmClock, Check, ChevronRight, CopyCheck, Fingerprint, FlaskConical, Gauge, ShieldAlert, ShieldPlus, X } from 'lucide-react'
import type { RuleSpec } from '../../../../shared/approvals/allow-rules'
import type { ApprovalItem } from '../../../../shared/api'
import { ActionButton } from '../../components/action-button'
import { Chip } from '../../components/chip'
import { Keys } from '../../components/kbd'
import { InlineError } from '../../components/state-views'
import { plural } from '../../lib/format'
import { displayCall, toolLabel, unansweredEnd, wantsTo } from './approval-format'
import { useApprovalsUi } from './approvals-store'
import { WaitingTime } from './pending-list'
import { RuleProposal } from './rule-proposal'
import { ToolPreview } from './tool-preview'
import { useNow } from '../../hooks/use-now'
import { ForgedList } from './forged-list'
import { HiddenTextWarning, Visible } from '../../components/visible'
import { ProvenanceRows } from './provenance-rows'
import { presenceUnavailable } from '../../lib/webauthn'

/** What the detail pane can do. */
export interface DetailActions {
  decide: (decision: 'allow' | 'deny') => void
  approveIdentical: () => void
  next: () => void
  saveRuleAndApprove: (rule: RuleSpec) => void
  /** "Not now" for `minutes` (0 wakes a snoozed request). */
  snooze: (minutes: number) => void
  busy: boolean
  error: unknown
}

/** The times "Not now" offers. */
const SNOOZE_CHOICES: readonly { minutes: number; label: string }[] = [
  { minutes: 15, label: '15 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 1440, label: 'a day' }
]

/** "Not now": hides the request for a chosen time without denying it; a snoozed one can be woken. */
function NotNow({ item, actions }: { item: ApprovalItem; actions: DetailActions }) {
  const [minutes, setMinutes] = useState(60)
  if (item.snoozed_until)
    return (
      <p className="appr-snoozed" data-testid="snoozed-note">
        <AlarmClock size={14} aria-hidden /> Snoozed until {new Date(item.snoozed_until).toLocaleTimeString()}: not decided, the agent still
        waits.{' '}
        <button type="button" className="link-btn" onClick={() => actions.snooze(0)} disabled={actions.busy} data-testid="wake">
          Bring it back now
        </button>
      </p>
    )
  return (
    <div className="appr-snooze">
      <ActionButton icon={AlarmClock} onClick={() => actions.snooze(minutes)} disabled={actions.busy} testId="snooze">
        Not now
      </ActionButton>
      <label className="sr-only" htmlFor="appr-snooze-for">
        Hide for
      </label>
      <select
        id="appr-snooze-for"
        className="input"
        value={minutes}
        onChange={(e) => setMinutes(Number(e.target.value))}
        data-testid="snooze-for"
      >
        {SNOOZE_CHOICES.map((c) => (
          <option key={c.minutes} value={c.minutes}>
            for {c.label}
          </option>
        ))}
      </select>
      <span className="hint">
        {item.test
          ? 'Hides it without denying: a test request has no agent waiting; unanswered, it leaves the inbox when it expires.'
          : 'Hides it without denying: the agent keeps waiting until its hook gives up.'}
      </span>
    </div>
  )
}

/** What happens if nobody answers: the hook gives up, or (a test request) it leaves the inbox. */
function GivesUp({ item }: { item: ApprovalItem }) {
  const now = useNow(1000)
  const end = unansweredEnd(item, now)
  return (
    <>
      <dt>{end.label}</dt>
      <dd data-testid="approval-gives-up">
        <span className={end.hint === null ? 'muted' : end.soon ? 'text-error' : undefined}>{end.text}</span>
      </dd>
    </>
  )
}

/** The detail pane of one pending request. */
export function RequestDetail({
  item,
  identicalAgents,
  actions,
  reasonRef
}: {
  item: ApprovalItem
  identicalAgents: string[]
  actions: DetailActions
  reasonRef: RefObject<HTMLInputElement | null>
}) {
  const reason = useApprovalsUi((s) => s.reason)
  const setReason = useApprovalsUi((s) => s.setReason)
  const proposing = useApprovalsUi((s) => s.proposing === item.id)
  const setProposing = useApprovalsUi((s) => s.setProposing)
  return (
    <aside className="split-side appr-detail" aria-label="Selected request" data-testid="approval-detail">
      <header className="appr-detail-head">
        <Chip tone="mono" title={item.tool_name}>
          {toolLabel(item.tool_name)}
        </Chip>
        <h2 className="appr-title">
          <span className="mono">
            <Visible text={item.agent} />
          </span>{' '}
          {wantsTo(displayCall(item))} in{' '}
          <strong>
            <Visible text={item.project} />
          </strong>
        </h2>
      </header>
      <dl className="appr-meta">
        <dt>Waiting</dt>
        <dd>
          <WaitingTime item={item} />
        </dd>
        <GivesUp item={item} />
        <dt>Harness</dt>
        <dd>{item.harness ?? 'unknown'}</dd>
        <ProvenanceRows item={item} />
        <dt>Hub</dt>
        <dd className="ellipsis" title={item.palace}>
          {item.hub}
        </dd>
        <dt>Thread</dt>
        <dd>
          <a href={threadLink(item.hub === item.palace ? null : item.hub, item.correlation_id)} data-testid="approval-thread">
            Open in the Timeline
          </a>
        </dd>
        {item.cwd && (
          <>
            <dt>Folder</dt>
            <dd className="mono ellipsis appr-meta-wide" title={item.cwd}>
              <Visible text={item.cwd} />
            </dd>
          </>
        )}
      </dl>
      <HiddenTextWarning
        texts={[
          item.agent,
          item.project,
          item.cwd ?? '',
          item.tool_name,
          JSON.stringify(item.tool_input),
          JSON.stringify(item.provenance ?? {})
        ]}
      />
      <ForgedList item={item} />
      {item.test && (
        <p className="appr-test" data-testid="test-request-note">
          <FlaskConical size={14} aria-hidden />
          <span>
            A test request from Connect agents: no agent waits for it and nothing runs, whether you approve or deny it. It shows that{' '}
            {item.agent}’s requests reach this inbox.
          </span>
        </p>
      )}
      <ToolPreview tool={item.tool_name} input={item.tool_input} cwd={item.cwd} truncated={item.tool_input_truncated} />
      {item.presence_required && (
        <p className="appr-presence" data-testid="presence-needed">
          <Fingerprint size={14} aria-hidden />
          {item.presence_risk ? (
            <span>
              Needs your presence: <span className="mono">{item.presence_risk}</span>
            </span>
          ) : (
            <span>Needs your presence: every allow is confirmed with your authenticator</span>
          )}
          {presenceUnavailable() && <span className="text-error">{presenceUnavailable()}.</span>}
        </p>
      )}
      {item.budget && (
        <p className="appr-declined appr-budget" data-testid="budget-hold">
          <Gauge size={14} aria-hidden />
          <span>
            Held: over budget <Visible text={item.budget.label} /> (
            {item.budget.limit_tokens !== null
              ? `${item.budget.used_tokens.toLocaleString('en-US')} tokens used`
              : `$${(item.budget.used_usd ?? 0).toFixed(2)} used, an estimate`}
            ).{' '}
            {item.budget.rule_id !== null
              ? 'A rule allows this call: it runs once you raise the budget or let the session go on, or decide here.'
              : 'Decide here, or raise the budget.'}{' '}
            <a href={usageLink(item.budget.id)}>Budgets</a>
          </span>
        </p>
      )}
      {item.rule_declined && (
        <p className="appr-declined" data-testid="rule-declined">
          <ShieldAlert size={14} aria-hidden />
          <span>
            Asked although a rule looks like it covers it: <Visible text={item.rule_declined} />
          </span>
        </p>
      )}
      {item.identical > 1 && !item.presence_required && (
        <p className="appr-identical" data-testid="identical-note">
          <CopyCheck size={14} aria-hidden /> {plural(item.identical, 'identical request')} waiting ({identicalAgents.join(', ')}).{' '}
          <button
            type="button"
            className="link-btn"
            onClick={actions.approveIdentical}
            disabled={actions.busy}
            data-testid="approve-identical"
          >
            Approve all {item.identical}
          </button>
        </p>
      )}
      {proposing ? (
        <RuleProposal
          item={item}
          busy={actions.busy}
          error={actions.error}
          onSave={actions.saveRuleAndApprove}
          onCancel={() => setProposing(null)}
        />
      ) : (
        <div className="appr-decide">
          <div className="field">
            <label htmlFor="appr-reason">Reason (optional, sent to the agent)</label>
            <input
              id="appr-reason"
              ref={reasonRef}
              className="input"
              value={reason}
              maxLength={2000}
              placeholder="e.g. only delete node_modules, not the global cache"
              onChange={(e) => setReason(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault()
                  actions.decide(e.metaKey || e.ctrlKey ? 'allow' : 'deny')
                } else if (e.key === 'Escape') {
                  e.currentTarget.blur()
                }
              }}
              data-testid="approval-reason"
            />
            <span className="hint">
              In this field <Keys keys={['↵']} /> denies with the reason, <Keys keys={['Ctrl', '↵']} /> approves with it.
            </span>
          </div>
          <InlineError error={actions.error} />
          <div className="appr-actions">
            <ActionButton
              icon={item.presence_required ? Fingerprint : Check}
              className="btn btn-primary"
              onClick={() => actions.decide('allow')}
              disabled={actions.busy}
              testId="approve"
            >
              {item.presence_required ? 'Approve with authenticator' : 'Approve'} <Keys keys={['a']} />
            </ActionButton>
            <ActionButton icon={X} className="btn btn-danger" onClick={() => actions.decide('deny')} disabled={actions.busy} testId="deny">
              Deny <Keys keys={['d']} />
            </ActionButton>
            <button type="button" className="btn" onClick={actions.next} data-testid="next">
              Next <Keys keys={['n']} /> <ChevronRight size={14} aria-hidden />
            </button>
          </div>
          {!item.test && (
            <button type="button" className="link-btn appr-always" onClick={() => setProposing(item.id)} data-testid="approve-always">
              <ShieldPlus size={14} aria-hidden /> Approve and always allow this…
            </button>
          )}
          <NotNow item={item} actions={actions} />
        </div>
      )}
    </aside>
  )
}
