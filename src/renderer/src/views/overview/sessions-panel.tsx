/**
 * The Overview's "Agent sessions": every session the harnesses' lifecycle hooks report (Claude
 * Code, Codex, Gemini CLI, Copilot CLI; `muster session-hook install`), as waiting for your
 * approval (one of its tool calls is in the inbox), working, waiting for input, interrupted or
 * done, with since when. Those waiting for the operator first, then working, then the sessions
 * that ended in the last day. Each row shows the session's running total of tokens and its estimate
 * (`usage.summary` by session), or that its harness records no usage. Hidden until some harness
 * reports a session.
 */
import { CircleCheck, CircleStop, Hourglass, Loader, ShieldQuestion } from 'lucide-react'
import type { ReactNode } from 'react'
import type { SessionShownState } from '../../../../shared/contract/session-state'
import type { HarnessUsage, PriceTableInfo, UsageRow } from '../../../../shared/api'
import { shortTokens } from '../../../../shared/usage/format'
import { useAgentSessions, type AgentSession } from '../../api/session-queries'
import { useUsage } from '../../api/usage-queries'
import { Estimate, tokensText } from '../../components/usage-figures'
import { useNow } from '../../hooks/use-now'
import { shortAge } from '../../lib/format'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

const STATE: Record<SessionShownState, { label: string; icon: ReactNode; rank: number }> = {
  approval: { label: 'waiting for your approval', icon: <ShieldQuestion size={14} aria-hidden />, rank: 0 },
  waiting: { label: 'waiting for input', icon: <Hourglass size={14} aria-hidden />, rank: 1 },
  // the user stopped its turn (Claude Code's Interrupt): it waits for a new prompt
  interrupted: { label: 'interrupted', icon: <CircleStop size={14} aria-hidden />, rank: 2 },
  working: { label: 'working', icon: <Loader size={14} aria-hidden />, rank: 2 },
  done: { label: 'done', icon: <CircleCheck size={14} aria-hidden />, rank: 3 }
}
/** Ended sessions stay listed this long. */
const DONE_FOR_MS = 24 * 3600 * 1000
/** Rows listed before "and N more". */
const SHOWN = 12

/** The sessions worth showing now, in order. */
export function visibleSessions(sessions: readonly AgentSession[], now: number): AgentSession[] {
  return sessions
    .filter((s) => s.state !== 'done' || now - Date.parse(s.since) < DONE_FOR_MS)
    .sort((a, b) => STATE[a.shown].rank - STATE[b.shown].rank || Date.parse(b.shownSince) - Date.parse(a.shownSince))
}

/** What a session row says of its usage: its running total, or why there is none. */
interface SessionUsage {
  row: UsageRow | null
  harness: HarnessUsage | null
  prices: PriceTableInfo
}

/** The running total of a session (tokens and estimate), or that its harness records no usage. */
function SessionTotal({ u }: { u: SessionUsage }) {
  if (u.row)
    return (
      <span className="session-usage" data-testid="session-usage" title={tokensText(u.row.total)}>
        {shortTokens(u.row.total)} tokens · <Estimate spend={u.row} prices={u.prices} />
      </span>
    )
  if (u.harness?.status === 'no-usage')
    return (
      <span className="session-usage muted" data-testid="session-usage" title={u.harness.note}>
        no usage data
      </span>
    )
  return null
}

function SessionRow({ s, now, usage }: { s: AgentSession; now: number; usage: SessionUsage | null }) {
  const st = STATE[s.shown]
  const folder = s.cwd.split(/[\\/]/).filter(Boolean).pop() ?? ''
  return (
    <li
      className={`row-list-item session-row session-${s.shown}`}
      data-testid="session-row"
      data-session={s.session_id}
      data-state={s.shown}
      title={`${visibleTitle(s.harness)} session ${visibleTitle(s.session_id)}\n${visibleTitle(s.cwd)}\nlast hook: ${visibleTitle(s.hook_event)} at ${new Date(s.since).toLocaleString()}`}
    >
      <span className="row-list-label session-state">
        {st.icon}
        {st.label}
      </span>
      <span className="row-list-text session-text">
        <span className="row-list-clip session-agent">
          <Visible text={s.agent} />{' '}
          <span className="muted">
            · <Visible text={s.harness} />
          </span>
        </span>
        <span className="row-list-clip session-where muted">
          <Visible
            text={[s.stream.replace(/^project\//, ''), folder !== s.stream.replace(/^project\//, '') ? folder : null, s.message]
              .filter(Boolean)
              .join(' · ')}
          />
        </span>
      </span>
      <span className="row-list-time session-time">
        <span data-testid="session-since" title={`since ${new Date(s.shownSince).toLocaleString()}`}>
          {s.shown === 'done' ? `ended ${shortAge(s.shownSince, now)}` : `for ${shortAge(s.shownSince, now)}`}
        </span>
        {usage && <SessionTotal u={usage} />}
      </span>
    </li>
  )
}

/** The panel; nothing while no session has been reported. */
export function SessionsPanel() {
  const { sessions, errors } = useAgentSessions()
  const now = useNow()
  const rows = visibleSessions(sessions, now)
  const usage = useUsage('all', 'session').data
  if (!rows.length) return null
  const totals = new Map((usage?.rows ?? []).map((r) => [`${r.session?.harness}\u0000${r.key}`, r]))
  const usageOf = (s: AgentSession): SessionUsage | null =>
    usage
      ? {
          row: totals.get(`${s.harness}\u0000${s.session_id}`) ?? null,
          harness: usage.harnesses.find((h) => h.harness === s.harness) ?? null,
          prices: usage.prices
        }
      : null
  const count = (state: SessionShownState) => rows.filter((s) => s.shown === state).length
  return (
    <section className="row-panel sessions-panel" data-testid="sessions-panel" aria-label="Agent sessions">
      <div className="needs-head">
        <h2>Agent sessions</h2>
        <span className="needs-summary muted" data-testid="sessions-summary">
          {count('approval') > 0 && <>{count('approval')} waiting for your approval · </>}
          {count('waiting')} waiting for input · {count('working')} working · {count('done')} done today
        </span>
      </div>
      {errors.map((e) => (
        <p key={e} className="needs-problem">
          {e}
        </p>
      ))}
      <ul className="row-list sessions-list">
        {rows.slice(0, SHOWN).map((s) => (
          <SessionRow key={`${s.hub}\u0000${s.agent}\u0000${s.session_id}`} s={s} now={now} usage={usageOf(s)} />
        ))}
      </ul>
      {rows.length > SHOWN && <p className="muted">and {rows.length - SHOWN} more</p>}
    </section>
  )
}
