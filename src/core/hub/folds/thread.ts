/**
 * Folding one correlation id into a task state (spec section 4, "Lifecycle"): the latest
 * status-bearing event wins, in seq order; a `superseded` ack voids what it references (and acks
 * of voided events), and superseding the request itself supersedes the task. A claimed task with
 * no terminal status after `stuckAfterMs` (default 2 h) is "stuck".
 */
import type { HubEvent, TaskFold, ThreadStep } from '../../../shared/contract/hub-types'
import { ACK_OF, EventType, Status, TASK_STATES, type TaskState } from '../../../shared/contract/hub-vocabulary'
import { queryPage, selectList } from '../store/event-query'
import type { Db } from '../../sqlite'
import type { HubConnection, HubShape } from '../store/hub-connection'
import { previewEvent, toEvents } from '../store/reader'
import type { EventRow } from '../store/writer'

export type { TaskFold, TaskState, ThreadStep }

/** Claimed tasks without a terminal status for this long are stuck. */
export const DEFAULT_STUCK_AFTER_MS = 2 * 60 * 60 * 1000
/** Events of one thread read at most (a thread is a conversation, not a stream). */
export const MAX_THREAD_EVENTS = 10_000

const STATES = new Set<string>(TASK_STATES)

/** The `ack_of` link of an event (metadata), or null. */
export function ackOf(e: HubEvent): string | null {
  const v = e.metadata[ACK_OF]
  return typeof v === 'string' && v ? v : null
}

/** A task's one-line title: the first line after `Goal:` in the request body, else its first line. */
export function taskTitle(body: string): string {
  const m = /^Goal:\n(.*)/m.exec(body)
  const line = (m ? m[1]! : (body.split('\n', 1)[0] ?? '')).trim()
  return line.length > 120 ? line.slice(0, 119) + '…' : line
}

/** Folds a thread's events (any order) into its task state. */
export function foldThread(correlationId: string, events: HubEvent[], opts: { now?: number; stuckAfterMs?: number } = {}): TaskFold {
  const sorted = [...events].sort((a, b) => a.seq - b.seq)
  const request = sorted.find((e) => e.type === EventType.taskRequest) ?? null
  const ids = new Set(sorted.map((e) => e.id))
  const voided = new Set<string>()
  for (const e of sorted) {
    const target = ackOf(e)
    if (e.status === Status.superseded && target && target !== request?.id) voided.add(target)
  }
  for (const e of sorted) {
    const target = ackOf(e)
    if (target && voided.has(target) && e.status !== Status.superseded) voided.add(e.id)
  }
  let state: TaskState = Status.open
  let setter: HubEvent | null = null
  let claim: HubEvent | null = null
  for (const e of sorted) {
    if (!e.status || !STATES.has(e.status) || voided.has(e.id)) continue
    const target = ackOf(e)
    // A superseded ack of anything but the request (or of nothing in this thread) only voids.
    if (e.status === Status.superseded && target && target !== request?.id && ids.has(target)) continue
    state = e.status as TaskState
    setter = e
    if (e.status === Status.claimed) claim = e
  }
  const now = opts.now ?? Date.now()
  const claimedMs = claim ? Date.parse(claim.created_at) : NaN
  const stuckFor = state === Status.claimed && Number.isFinite(claimedMs) ? now - claimedMs : null
  const stuck = stuckFor !== null && stuckFor > (opts.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS)
  const last = sorted[sorted.length - 1]
  return {
    correlation_id: correlationId,
    state,
    state_by: setter?.from_agent ?? null,
    state_at: setter?.created_at ?? null,
    state_event_id: setter?.id ?? null,
    request: request && {
      id: request.id,
      from_agent: request.from_agent,
      to_agent: request.to_agent,
      stream: request.stream,
      branch: request.branch,
      base_commit: request.base_commit,
      title: taskTitle(request.body),
      created_at: request.created_at
    },
    claimed_by: claim?.from_agent ?? null,
    claimed_at: claim?.created_at ?? null,
    stuck,
    stuck_for_ms: stuck ? stuckFor : null,
    event_count: sorted.length,
    last_at: last?.created_at ?? null,
    steps: sorted.map((e) => ({
      seq: e.seq,
      id: e.id,
      type: e.type,
      status: e.status,
      from_agent: e.from_agent,
      to_agent: e.to_agent,
      created_at: e.created_at,
      hlc: e.hlc,
      ack_of: ackOf(e),
      voided: voided.has(e.id),
      artifact_ids: e.artifact_ids,
      body: previewEvent(e).body
    }))
  }
}

/**
 * Every event of one correlation id, in seq order (index-backed), plus the event whose id is the
 * correlation id (acks of an uncorrelated event use its id as their correlation id).
 */
export function readThreadEvents(conn: HubConnection, correlationId: string): HubEvent[] {
  return conn.read((db, shape) => threadEventsOn(db, shape, correlationId))
}

/** `readThreadEvents` on an open read connection. */
export function threadEventsOn(db: Db, shape: HubShape, correlationId: string): HubEvent[] {
  const { rows } = queryPage<EventRow>(db, shape, {
    filters: { correlation_id: correlationId },
    after: null,
    before: null,
    order: 'asc',
    limit: MAX_THREAD_EVENTS
  })
  if (shape.hasEvents && !rows.some((r) => r.id === correlationId)) {
    const root = db.prepare(`SELECT ${selectList(shape)} FROM events WHERE id = ?`).get(correlationId) as EventRow | undefined
    if (root) rows.push(root)
    rows.sort((a, b) => a.rowid - b.rowid)
  }
  return toEvents(db, shape, rows)
}

/** Reads and folds one thread. */
export function readThread(
  conn: HubConnection,
  correlationId: string,
  opts: { now?: number; stuckAfterMs?: number } = {}
): { fold: TaskFold; events: HubEvent[] } {
  const events = readThreadEvents(conn, correlationId)
  return { fold: foldThread(correlationId, events, opts), events }
}
