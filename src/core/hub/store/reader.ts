/**
 * Reading the hub (spec/hub-logstream.md section 6): `list` with every upstream filter, cursors
 * by rowid, preview, and the event envelope in upstream key order. Reads never write the file.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubEventEnvelope } from '../../../shared/contract/hub-types'
import type { Db } from '../../sqlite'
import {
  buildWhere,
  exactRowid,
  maxRowid,
  minRowid,
  queryPage,
  selectList,
  type EventFilters,
  type PagePlan,
  type Rowid
} from './event-query'
import type { ListQuery } from '../hub-port'
import type { HubConnection, HubShape } from './hub-connection'
import { pyRepr } from '../../text'
import { rowToEvent, type EventRow, type HubEvent } from './writer'
import { DEFAULT_LIMIT, MAX_LIMIT } from '../values/filter-values'

/** `list` defaults: 50 events, at most 500 (defined with the query validation). */
export { DEFAULT_LIMIT, MAX_LIMIT }

/** Bodies longer than this many characters are cut when `preview` is on. */
export const PREVIEW_CHARS = 200

/** An envelope, possibly previewed (`body_truncated`/`body_length` only when cut). */
export type ListedEvent = HubEventEnvelope

/** Options of `listEvents`: the port's list query. */
export type ListOptions = ListQuery

/** A page of events. */
export interface StorePage {
  events: ListedEvent[]
  /** More matching events exist beyond this page in the same direction. */
  has_more: boolean
  /** How the page was found (scan or an index). */
  plan: PagePlan
}

/** Clamps a limit to 1..500 (default 50). */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT
  return Math.min(Math.max(1, Math.floor(limit)), MAX_LIMIT)
}

/** The rowid of an anchor event, or the upstream error `<field> '<id>' not found`. */
export function anchorRowid(db: Db, id: string, field: 'since_event_id' | 'before_event_id'): Rowid {
  const r = exactRowid(db, 'SELECT rowid FROM events WHERE id = ?', id)
  if (r === null) throw new ApiError(`${field} ${pyRepr(id)} not found`, 'not_found')
  return r
}

/** Cuts a body to 200 characters (code points, as Python counts), marking the envelope. */
export function previewEvent(e: HubEvent): ListedEvent {
  const body = e.body
  if (body.length <= PREVIEW_CHARS) return e
  let count = 0
  let cutAt = body.length
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < body.length) {
      const d = body.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    if (++count === PREVIEW_CHARS) cutAt = i + 1
  }
  if (count <= PREVIEW_CHARS) return e
  return { ...e, body: body.slice(0, cutAt), body_truncated: true, body_length: count }
}

/** Artifact ids per event id (ordered by artifact id), in one query for a page. */
export function artifactIdsFor(db: Db, shape: HubShape, eventIds: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  if (!shape.hasEventArtifacts || eventIds.length === 0) return out
  for (let i = 0; i < eventIds.length; i += 500) {
    const chunk = eventIds.slice(i, i + 500)
    const rows = db
      .prepare(
        `SELECT event_id, artifact_id FROM event_artifacts WHERE event_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY event_id, artifact_id`
      )
      .all(...chunk) as { event_id: string; artifact_id: string }[]
    for (const r of rows) {
      const list = out.get(r.event_id)
      if (list) list.push(r.artifact_id)
      else out.set(r.event_id, [r.artifact_id])
    }
  }
  return out
}

/** Envelopes of raw rows, with their artifact ids. */
export function toEvents(db: Db, shape: HubShape, rows: EventRow[]): HubEvent[] {
  const artifacts = artifactIdsFor(
    db,
    shape,
    rows.map((r) => r.id)
  )
  return rows.map((r) => rowToEvent(r, artifacts.get(r.id) ?? []))
}

/** Lists events (section 6): filters, exclusive rowid cursors, limit 50 (max 500), asc by default. */
export function listEvents(conn: HubConnection, opts: ListOptions = {}): StorePage {
  return conn.read((db, shape) => listOn(db, shape, opts))
}

/** `listEvents` on an open read connection. */
export function listOn(db: Db, shape: HubShape, opts: ListOptions): StorePage {
  if (!shape.hasEvents) return { events: [], has_more: false, plan: 'never' }
  const anchor = opts.since_event_id ? anchorRowid(db, opts.since_event_id, 'since_event_id') : null
  const after = anchor === null ? (opts.since_seq ?? null) : opts.since_seq === undefined ? anchor : maxRowid(anchor, opts.since_seq)
  const anchored = opts.before_event_id ? anchorRowid(db, opts.before_event_id, 'before_event_id') : null
  const before =
    anchored === null ? (opts.before_seq ?? null) : opts.before_seq === undefined ? anchored : minRowid(anchored, opts.before_seq)
  const limit = clampLimit(opts.limit)
  const { rows, plan } = queryPage<EventRow>(db, shape, { filters: opts, after, before, order: opts.order ?? 'asc', limit: limit + 1 })
  const page = rows.slice(0, limit)
  const events = toEvents(db, shape, page)
  return { events: opts.preview ? events.map(previewEvent) : events, has_more: rows.length > limit, plan }
}

/** One event by id (full body), or null. */
export function readEvent(conn: HubConnection, id: string): HubEvent | null {
  return conn.read((db, shape) => eventOn(db, shape, id))
}

/** `readEvent` on an open read connection. */
export function eventOn(db: Db, shape: HubShape, id: string): HubEvent | null {
  if (!shape.hasEvents) return null
  const row = db.prepare(`SELECT ${selectList(shape)} FROM events WHERE id = ?`).get(id) as EventRow | undefined
  return row ? toEvents(db, shape, [row])[0]! : null
}

/** The id and rowid of the newest event (the tip), or null for an empty hub. */
export function tipOn(db: Db, shape: HubShape): { id: string; seq: number } | null {
  if (!shape.hasEvents) return null
  const row = db.prepare('SELECT id, rowid AS seq FROM events ORDER BY rowid DESC LIMIT 1').get() as { id: string; seq: number } | undefined
  return row ?? null
}

/** Counts matching events (only when a caller asks: it may visit every match). */
export function countEvents(conn: HubConnection, filters: EventFilters, cap = Number.MAX_SAFE_INTEGER): number {
  return conn.read((db, shape) => countOn(db, shape, filters, cap))
}

/** `countEvents` on an open read connection. */
export function countOn(db: Db, shape: HubShape, filters: EventFilters, cap = Number.MAX_SAFE_INTEGER): number {
  if (!shape.hasEvents) return 0
  const where = buildWhere(filters, shape)
  if (where.never) return 0
  const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM events${where.sql ? ' WHERE ' + where.sql : ''} LIMIT ?)`
  return (db.prepare(sql).get(...where.params, cap) as { n: number }).n
}
