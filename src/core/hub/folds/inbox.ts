/**
 * The operator's inbox in a hub: events addressed to the operator or broadcast (`'*'`), not
 * written by the operator, after the persisted cursor (a rowid: never a timestamp).
 */
import { BROADCAST, EventType } from '../../../shared/contract/hub-vocabulary'
import type { Db } from '../../sqlite'
import { buildWhere, queryPage, type EventFilters } from '../store/event-query'
import type { HubShape } from '../store/hub-connection'
import { previewEvent, toEvents, type ListedEvent } from '../store/reader'
import type { EventRow } from '../store/writer'

/** Unread counts stop at this number (the UI shows "9999+"). */
export const UNREAD_CAP = 9_999
/** Rowid ranges up to this size are counted by a plain range scan. */
const SHORT_RANGE = 20_000

/** Filters of an agent's inbox: `to_agent` = agent or `'*'`, excluding its own events. */
export function inboxFilters(agent: string): EventFilters {
  return { to_agent: agent, exclude_from_agent: agent }
}

/**
 * Unread inbox events after `afterSeq` (capped at 9999). Broadcast `status` events (presence
 * heartbeats, "watching" lines) never count: a fleet heartbeating would keep the count meaningless.
 */
export function unreadOn(db: Db, shape: HubShape, agent: string, afterSeq: number, cap = UNREAD_CAP): number {
  if (!shape.hasEvents) return 0
  const top = (db.prepare('SELECT max(rowid) AS m FROM events').get() as { m: number | null }).m ?? 0
  if (top <= afterSeq) return 0
  const where = buildWhere(inboxFilters(agent), shape, top - afterSeq <= SHORT_RANGE)
  const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE rowid > ? AND ${where.sql} AND NOT (type = ? AND to_agent = ?) LIMIT ?)`
  return (db.prepare(sql).get(afterSeq, ...where.params, EventType.status, BROADCAST, cap) as { n: number }).n
}

/** An inbox event with its read flag. */
export type InboxEvent = ListedEvent & { unread: boolean }

/** The newest inbox events (previewed), each marked unread when after the cursor. */
export function inboxOn(db: Db, shape: HubShape, agent: string, afterSeq: number, limit: number): { unread: number; events: InboxEvent[] } {
  if (!shape.hasEvents) return { unread: 0, events: [] }
  const { rows } = queryPage<EventRow>(db, shape, { filters: inboxFilters(agent), after: null, before: null, order: 'desc', limit })
  const events = toEvents(db, shape, rows).map((e) => ({ ...previewEvent(e), unread: e.seq > afterSeq }))
  return { unread: unreadOn(db, shape, agent, afterSeq), events }
}

/** The newest inbox event (previewed) after `afterSeq`, or null. */
export function latestInboxOn(db: Db, shape: HubShape, agent: string, afterSeq: number): ListedEvent | null {
  const { rows } = queryPage<EventRow>(db, shape, { filters: inboxFilters(agent), after: afterSeq, before: null, order: 'desc', limit: 1 })
  const [e] = toEvents(db, shape, rows)
  return e ? previewEvent(e) : null
}
