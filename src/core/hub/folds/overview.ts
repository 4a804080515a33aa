/**
 * The hub card of the fleet overview: agents present and their three-way state, task counts,
 * patches waiting, approvals waiting, and the operator's unread inbox.
 *
 * Agent state rule (first that applies):
 * - `needs-me`: the agent is waiting on the operator: an `approval.request` from it without an
 *   `approval.decision` whose hook still waits; a `patch.ready` from it with no applied/failed/superseded ack, addressed to
 *   the operator or `'*'`, or in a task the operator requested; a task the operator requested from
 *   it that is `ready` or `blocked`; or an unread event from it addressed to the operator directly.
 * - `working`: it holds a claimed task that is not stuck, or wrote an event in the last 15 min.
 * - `idle`: everything else (present or not).
 */
import type { AgentState, AgentSummary, HubEvent, HubOverviewData, PresenceEntry } from '../../../shared/contract/hub-types'
import { expiryDeadline } from '../../../shared/approvals/expiry'
import { BROADCAST, EventType, Status } from '../../../shared/contract/hub-vocabulary'
import type { Db } from '../../sqlite'
import { queryPage } from '../store/event-query'
import type { HubShape, ReadStep } from '../store/hub-connection'
import { presenceOn } from './presence'
import { toEvents } from '../store/reader'
import { listTasksIn, patchesWaitingIn, threadsOn, type ThreadSource } from './tasks'
import { unreadOn } from './inbox'
import type { EventRow } from '../store/writer'

/** An agent is "working" when it wrote something this recently. */
export const ACTIVE_WITHIN_MS = 15 * 60 * 1000
/** Recent activity is read from this many newest events (a cheap rowid range). */
const RECENT_EVENTS = 2_000

export type { AgentState, AgentSummary, HubOverviewData }

/** Options of `overviewOn`. */
export interface OverviewOptions {
  operator: string
  inboxAfterSeq: number
  now?: number
  stuckAfterMs?: number
  staleAfterMs?: number
  /** Where task and patch threads are read (default: from the file each time). */
  threads?: ThreadSource
}

/** What recent activity needs of a row. */
type Activity = Pick<HubEvent, 'seq' | 'from_agent' | 'to_agent' | 'created_at'>

/**
 * Who wrote to whom, and when, in the newest RECENT_EVENTS rows: these four columns only (whole
 * events, with bodies, metadata and artifact ids, were megabytes of garbage per overview, and a
 * busy dashboard asks for one twice a second).
 */
function recent(db: Db, shape: HubShape): Activity[] {
  if (!shape.hasEvents) return []
  const to = shape.columns.has('to_agent') ? 'to_agent' : 'NULL AS to_agent'
  return db
    .prepare(`SELECT rowid AS seq, from_agent, ${to}, created_at FROM events ORDER BY rowid DESC LIMIT ?`)
    .all(RECENT_EVENTS) as Activity[]
}

/** Open approval requests (newest 500 examined; past their hook's timeout they no longer wait) per requesting agent. */
function approvalsWaiting(db: Db, shape: HubShape, now: number): Map<string, number> {
  const { rows } = queryPage<EventRow>(db, shape, {
    filters: { type: EventType.approvalRequest },
    after: null,
    before: null,
    order: 'desc',
    limit: 500
  })
  const requests = toEvents(db, shape, rows)
  const threads = threadsOn(db, shape, [...new Set(requests.map((r) => r.correlation_id).filter((c): c is string => !!c))])
  const out = new Map<string, number>()
  for (const r of requests) {
    // decided, or withdrawn (its session was interrupted or ended): nobody waits for it
    const decided = (threads.get(r.correlation_id ?? '') ?? []).some(
      (e) => e.type === EventType.approvalDecision || (e.type === EventType.approvalReceipt && e.metadata.stage === 'withdrawn')
    )
    if (!decided && now <= expiryDeadline(r.created_at, r.metadata.timeout_ms)) out.set(r.from_agent, (out.get(r.from_agent) ?? 0) + 1)
  }
  return out
}

/**
 * Computes the overview of one hub, one read per part (presence, tasks, patches, approvals,
 * recent activity, unread count): on 1,000,000 rows the parts together take tens of
 * milliseconds, and the event loop (the live tail, other requests) gets a turn between them.
 * Each part is a snapshot of its own; a row landing in between shows in the next overview.
 */
export async function overviewIn(read: ReadStep, o: OverviewOptions): Promise<HubOverviewData> {
  const now = o.now ?? Date.now()
  const presence = await read((db, shape) => presenceOn(db, shape, { now, staleAfterMs: o.staleAfterMs }))
  const { counts, tasks } = await listTasksIn(read, { now, stuckAfterMs: o.stuckAfterMs, threads: o.threads })
  const patches = await patchesWaitingIn(read, { now, threads: o.threads })
  const approvals = await read((db, shape) => approvalsWaiting(db, shape, now))
  const events = await read(recent)
  const inboxUnread = await read((db, shape) => unreadOn(db, shape, o.operator, o.inboxAfterSeq))
  const lastSeen = new Map<string, string>()
  const directUnread = new Set<string>()
  for (const e of events) {
    if (!lastSeen.has(e.from_agent)) lastSeen.set(e.from_agent, e.created_at)
    if (e.to_agent === o.operator && e.seq > o.inboxAfterSeq) directUnread.add(e.from_agent)
  }
  const taskRequester = new Map(tasks.map((t) => [t.correlation_id, t.request?.from_agent ?? null]))
  const needs = new Map<string, string>()
  const mark = (agent: string, why: string): void => void (needs.has(agent) || needs.set(agent, why))
  for (const [agent, n] of approvals) mark(agent, `${n} approval${n > 1 ? 's' : ''} waiting`)
  for (const p of patches) {
    const e = p.event
    const mine = e.to_agent === o.operator || e.to_agent === BROADCAST || taskRequester.get(e.correlation_id ?? '') === o.operator
    if (mine) mark(e.from_agent, `patch ${e.id} waiting to be applied`)
  }
  for (const t of tasks) {
    const worker = t.claimed_by ?? t.request?.to_agent
    if (worker && t.request?.from_agent === o.operator && (t.state === Status.ready || t.state === Status.blocked)) {
      mark(worker, `task ${t.correlation_id} is ${t.state}`)
    }
  }
  for (const a of directUnread) mark(a, 'unread message to you')
  const agents = new Set<string>([...presence.map((p) => p.agent), ...lastSeen.keys()])
  for (const t of tasks) {
    if (t.state === Status.claimed && t.claimed_by) agents.add(t.claimed_by)
    if (t.state === Status.open && t.request?.to_agent && t.request.to_agent !== BROADCAST) agents.add(t.request.to_agent)
  }
  agents.delete(o.operator)
  const byAgent = new Map(presence.map((p) => [p.agent, p]))
  const summaries: AgentSummary[] = [...agents].sort().map((agent) => {
    const claimed = tasks.filter((t) => t.state === Status.claimed && t.claimed_by === agent)
    const stuck = claimed.filter((t) => t.stuck).length
    const seen = lastSeen.get(agent) ?? byAgent.get(agent)?.at ?? null
    const active = seen !== null && now - Date.parse(seen) <= ACTIVE_WITHIN_MS
    let state: AgentState = 'idle'
    let reason = seen ? 'no claimed task, quiet for 15 min+' : 'no recent activity'
    if (needs.has(agent)) {
      state = 'needs-me'
      reason = needs.get(agent)!
    } else if (claimed.length > stuck) {
      state = 'working'
      reason = `${claimed.length - stuck} claimed task${claimed.length - stuck > 1 ? 's' : ''}`
    } else if (active) {
      state = 'working'
      reason = 'active in the last 15 min'
    }
    return { agent, state, reason, presence: presenceSummary(byAgent.get(agent)), claimed: claimed.length, stuck, last_seen_at: seen }
  })
  return {
    agents: summaries,
    tasks: counts,
    stuck: tasks.filter((t) => t.stuck),
    patches_waiting: patches,
    approvals_waiting: [...approvals.values()].reduce((a, b) => a + b, 0),
    inbox_unread: inboxUnread
  }
}

function presenceSummary(p: PresenceEntry | undefined): AgentSummary['presence'] {
  return p ? { at: p.at, age_ms: p.age_ms, stale: p.stale, cursor: p.cursor } : null
}
