/**
 * The Approvals screen: one inbox of every agent's pending tool calls across every known hub,
 * oldest first, with the selected request's preview and decision beside it; the history of
 * decisions (with conflicts); and the allowlist rules.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { History, ShieldCheck, ShieldQuestion } from 'lucide-react'
import type { RuleSpec } from '../../../../shared/approvals/allow-rules'
import type { ApprovalItem, MethodOutput } from '../../../../shared/api'
import { itemHub, useApprovals, useDecide, useDecideMany, useSaveRule, useSnooze } from '../../api/approval-queries'
import { client } from '../../api/client'
import { useAllowChallenge } from '../../api/presence-queries'
import { assertPresence } from '../../lib/webauthn'
import { Keys } from '../../components/kbd'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { useHash } from '../../lib/muse-route'
import { useToastStore } from '../../stores/toast-store'
import { deciderLabel } from './approval-format'
import { requestFromHash, tabFromHash, tabHref, useApprovalsUi, type ApprovalsTab } from './approvals-store'
import { HistoryList } from './history-list'
import { PendingList } from './pending-list'
import { RequestDetail } from './request-detail'
import { RulesEditor } from './rules-editor'
import { useApprovalKeys } from './use-approval-keys'

function useTab(): ApprovalsTab {
  const [tab, setTab] = useState(() => tabFromHash(window.location.hash))
  useEffect(() => {
    const on = (): void => setTab(tabFromHash(window.location.hash))
    window.addEventListener('hashchange', on)
    return () => window.removeEventListener('hashchange', on)
  }, [])
  return tab
}

function Tabs({ tab, pending }: { tab: ApprovalsTab; pending: number }) {
  const item = (id: ApprovalsTab, label: string, Icon: typeof ShieldCheck, count?: number) => (
    <a
      href={tabHref(id)}
      className={`muse-tab${tab === id ? ' active' : ''}`}
      aria-current={tab === id ? 'page' : undefined}
      data-testid={`approvals-tab-${id}`}
    >
      <Icon size={13} aria-hidden /> {label}
      {count ? <span className="muse-tab-count">{count}</span> : null}
    </a>
  )
  return (
    <nav className="muse-tabs" aria-label="Approvals views">
      {item('pending', 'Waiting', ShieldQuestion, pending)}
      {item('history', 'History', History)}
      {item('rules', 'Allowlist', ShieldCheck)}
    </nav>
  )
}

/** Tells the operator when their decision came second. */
function reportConflicts(results: { outcome: 'decided' | 'conflict'; item: ApprovalItem }[]): void {
  for (const r of results) {
    if (r.outcome !== 'conflict' || !r.item.decision) continue
    const w = r.item.decision
    useToastStore
      .getState()
      .push(
        'error',
        `${r.item.agent}'s request was already decided: ${w.decision} by ${deciderLabel(w)}. Your decision is recorded as a conflict and not applied.`
      )
  }
}

function Pending({ data }: { data: MethodOutput<'approvals.list'> }) {
  // "Not now" hides a request from the queue (undecided) until its time; they can be shown apart
  const [showSnoozed, setShowSnoozed] = useState(false)
  const snoozed = useMemo(() => data.pending.filter((i) => i.snoozed_until), [data.pending])
  const awake = useMemo(() => data.pending.filter((i) => !i.snoozed_until), [data.pending])
  // with none snoozed any more, the queue shows again
  const viewingSnoozed = showSnoozed && snoozed.length > 0
  const items = viewingSnoozed ? snoozed : awake
  const ui = useApprovalsUi()
  const decide = useDecide()
  const many = useDecideMany()
  const saveRule = useSaveRule()
  const snooze = useSnooze()
  const reasonRef = useRef<HTMLInputElement>(null)
  const found = items.findIndex((i) => i.id === ui.selected)
  const index = found >= 0 ? found : items.length ? 0 : -1
  const selected = index >= 0 ? items[index]! : null
  const identical = useMemo(() => (selected ? items.filter((i) => i.signature === selected.signature) : []), [items, selected])
  // an allow that needs presence: the challenge is fetched ahead, so the tap goes straight to the authenticator
  const allowChallenge = useAllowChallenge(selected)
  const [confirming, setConfirming] = useState(false)
  const [presenceError, setPresenceError] = useState<unknown>(null)
  const busy = decide.isPending || many.isPending || saveRule.isPending || snooze.isPending || confirming
  const error = presenceError ?? decide.error ?? many.error ?? saveRule.error ?? snooze.error
  /** Allows `target` with the operator's presence: the authenticator's prompt, then the decision with its proof. */
  const allowWithPresence = (target: ApprovalItem, reason: string, always: boolean): void => {
    setConfirming(true)
    setPresenceError(null)
    void (async () => {
      try {
        const ch =
          !always && allowChallenge.data && target.id === selected?.id
            ? allowChallenge.data
            : await client.call('approvals.presenceChallenge', { ...itemHub(target), id: target.id, decision: 'allow', always })
        const presence = await assertPresence(ch)
        decide.mutate(
          { ...itemHub(target), id: target.id, decision: 'allow', presence, ...(always ? { always } : {}), ...(reason ? { reason } : {}) },
          { onSuccess: (r) => reportConflicts([r]) }
        )
        advance([target.id])
      } catch (err) {
        setPresenceError(err)
      } finally {
        setConfirming(false)
      }
    })()
  }
  // an address naming a request (a muster:// link, a notification) selects it once it is listed
  const hash = useHash()
  const routed = useRef<string | null>(null)
  const select = ui.select
  useEffect(() => {
    const want = requestFromHash(hash)
    if (!want || routed.current === hash) return
    const hit = items.find((i) => (i.correlation_id === want.id || i.id === want.id) && (!want.hub || i.hub === want.hub))
    if (!hit) return
    routed.current = hash
    select(hit.id)
  }, [hash, items, select])

  /** After a decision the selection moves to the next request (or the previous one at the end). */
  const advance = (skip: readonly string[] = []): void => {
    const rest = items.filter((i) => !skip.includes(i.id))
    const next = items.slice(index + 1).find((i) => !skip.includes(i.id)) ?? rest[rest.length - 1]
    ui.select(next?.id ?? null)
  }
  const actions = {
    busy,
    error,
    decide: (decision: 'allow' | 'deny') => {
      if (!selected || busy) return
      const reason = ui.reason.trim()
      setPresenceError(null)
      if (decision === 'allow' && selected.presence_required) return allowWithPresence(selected, reason, false)
      decide.mutate(
        { ...itemHub(selected), id: selected.id, decision, ...(reason ? { reason } : {}) },
        { onSuccess: (r) => reportConflicts([r]) }
      )
      advance([selected.id])
    },
    approveIdentical: () => {
      if (!selected || busy) return
      const reason = ui.reason.trim()
      many.mutate(
        { items: identical.map((i) => ({ ...itemHub(i), id: i.id })), decision: 'allow', ...(reason ? { reason } : {}) },
        { onSuccess: (out) => reportConflicts(out.results.filter((r): r is Extract<typeof r, { outcome: unknown }> => 'outcome' in r)) }
      )
      advance(identical.map((i) => i.id))
    },
    next: () => advance(),
    snooze: (minutes: number) => {
      if (!selected || busy) return
      snooze.mutate({ ...itemHub(selected), id: selected.id, minutes })
      advance([selected.id])
    },
    saveRuleAndApprove: (rule: RuleSpec) => {
      if (!selected) return
      const target = selected
      saveRule.mutate(rule, {
        onSuccess: () => {
          ui.setProposing(null)
          if (target.presence_required) return allowWithPresence(target, 'always allowed from now on', true)
          decide.mutate(
            { ...itemHub(target), id: target.id, decision: 'allow', reason: 'always allowed from now on', always: true },
            { onSuccess: (r) => reportConflicts([r]) }
          )
          advance([target.id])
        }
      })
    }
  }
  useApprovalKeys(
    {
      move: (delta) => {
        if (!items.length) return
        ui.select(items[Math.max(0, Math.min(items.length - 1, index + delta))]!.id)
      },
      approve: () => actions.decide('allow'),
      deny: () => actions.decide('deny'),
      next: actions.next,
      reason: () => reasonRef.current?.focus()
    },
    !ui.proposing
  )

  const snoozedToggle = snoozed.length > 0 && (
    <button
      type="button"
      className="link-btn"
      onClick={() => setShowSnoozed(!viewingSnoozed)}
      aria-pressed={viewingSnoozed}
      data-testid="show-snoozed"
    >
      {viewingSnoozed ? 'Back to the queue' : `${plural(snoozed.length, 'snoozed request')} (not now)`}
    </button>
  )
  if (!items.length) {
    return (
      <EmptyState icon={<ShieldCheck size={18} />} title="Nothing is waiting for you">
        When an agent’s hook (<code>muster approve-hook</code>) asks to run a tool, the request appears here, oldest first, and a desktop
        notification tells you. {snoozedToggle}
      </EmptyState>
    )
  }
  return (
    <div className="screen-split appr-split">
      <div className="split-main appr-main">
        <PendingList items={items} selectedIndex={index} onSelect={(i) => ui.select(items[i]!.id)} />
        <footer className="dir-foot">
          <span>
            {viewingSnoozed ? `${plural(items.length, 'snoozed request')}` : `${plural(items.length, 'request')} waiting`}, oldest first{' '}
            {snoozedToggle}
          </span>
          <span className="dir-keys" aria-label="Keyboard shortcuts">
            <Keys keys={['j', 'k']} /> move <Keys keys={['a']} /> approve <Keys keys={['d']} /> deny <Keys keys={['n']} /> next{' '}
            <Keys keys={['r']} /> reason
          </span>
        </footer>
      </div>
      {selected && (
        <RequestDetail
          key={selected.id}
          item={selected}
          identicalAgents={[...new Set(identical.map((i) => i.agent))]}
          actions={actions}
          reasonRef={reasonRef}
        />
      )}
    </div>
  )
}

/** The screen. */
export function ApprovalsScreen() {
  const tab = useTab()
  const q = useApprovals()
  const data = q.data
  const unreadable = data?.hubs.filter((h) => !h.ok) ?? []
  return (
    <section className="screen screen-fill" data-testid="screen-approvals">
      <ScreenHeader
        title="Approvals"
        description="Tool calls your agents’ hooks routed to you, from every hub. A decision goes back to the agent at once; nobody answering means the hook times out and denies."
        actions={<Tabs tab={tab} pending={data?.pending.filter((i) => !i.snoozed_until).length ?? 0} />}
      />
      {unreadable.map((h) => (
        <p key={h.palace} className="inline-error" role="alert">
          Hub {h.hub} could not be read: {h.error}
        </p>
      ))}
      {tab === 'rules' ? (
        <RulesEditor />
      ) : q.isPending ? (
        <LoadingState label="Reading approval requests…" />
      ) : !data ? (
        <ErrorState title="Could not read the approval requests" error={q.error} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : tab === 'history' ? (
        <HistoryList items={data.history} />
      ) : (
        <Pending data={data} />
      )}
    </section>
  )
}
