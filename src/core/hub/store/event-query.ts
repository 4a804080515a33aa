/**
 * Builds and plans event queries over the hub (spec section 6) so pages stay fast on 1,000,000
 * rows without touching the file's indexes: filters become one WHERE clause; the plan is either a
 * backwards/forwards rowid range scan (dense matches, or a short range after a cursor) or the
 * most selective upstream index (probed with a capped, index-only count) plus a small sort.
 */
import type { Db } from '../../sqlite'
import type { HubShape } from './hub-connection'
import { BROADCAST } from '../../../shared/contract/hub-vocabulary'
import { valuesOf } from '../values/filter-values'
import type { EventFilters, OneOrMany } from '../hub-port'

export type { EventFilters, OneOrMany }
export { valuesOf }

/** Filter columns that the upstream schema indexes as `(column, created_at)`. */
const INDEXED: ReadonlyArray<readonly [keyof EventFilters, string]> = [
  ['correlation_id', 'events_correlation_idx'],
  ['to_agent', 'events_to_agent_idx'],
  ['type', 'events_type_idx'],
  ['topic', 'events_topic_created_idx'],
  ['stream', 'events_stream_created_idx']
]
const COLUMN_FILTERS = ['stream', 'room', 'topic', 'type', 'from_agent', 'correlation_id', 'status'] as const

/** A range that is scanned directly by rowid, whatever the filters (a cursor near the tip). */
const SHORT_RANGE = 20_000
/** Index probes count at most this many entries; fewer means "selective: use the index". */
const PROBE_CAP = 5_000
/** Rows per window of a rowid scan, and the rows scanned before falling back to an index. */
const WINDOW = 50_000
const SCAN_BUDGET = 200_000

/**
 * A rowid: a number while it is exact in JavaScript, a bigint above 2^53 (another writer may put a
 * row at 9223372036854775000: its neighbours must stay distinct, or a cursor repeats or skips it).
 */
export type Rowid = number | bigint

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)
/** A bigint rowid as a number when that is exact. */
export const rowidOf = (v: bigint | number): Rowid => (typeof v === 'bigint' && v <= SAFE && v >= -SAFE ? Number(v) : v)
/** The larger of two rowids. */
export const maxRowid = (a: Rowid, b: Rowid): Rowid => (a >= b ? a : b)
/** The smaller of two rowids. */
export const minRowid = (a: Rowid, b: Rowid): Rowid => (a <= b ? a : b)
/** `r + 1`, exact. */
export const nextRowid = (r: Rowid): Rowid => rowidOf(BigInt(r) + 1n)
/** `hi - lo` as a number (for size heuristics only). */
const span = (lo: Rowid, hi: Rowid): number => Number(BigInt(hi) - BigInt(lo))

/** The first column of the first row of `sql`, read exactly (integers as bigint when large), or null. */
export function exactRowid(db: Db, sql: string, ...params: unknown[]): Rowid | null {
  const v = db
    .prepare(sql)
    .pluck()
    .safeIntegers(true)
    .get(...params) as bigint | null | undefined
  return v === null || v === undefined ? null : rowidOf(v)
}

/** The largest rowid of the events table (0 when empty), exact. */
export function topRowid(db: Db): Rowid {
  return exactRowid(db, 'SELECT max(rowid) FROM events') ?? 0
}

/** A WHERE clause (without rowid bounds) and its parameters; `never` when nothing can match. */
export interface Where {
  sql: string
  params: unknown[]
  never: boolean
}

/** Turns filters into SQL. `unindexed` prefixes columns with `+` so SQLite cannot pick their index. */
export function buildWhere(f: EventFilters, shape: HubShape, unindexed = false): Where {
  const conds: string[] = []
  const params: unknown[] = []
  const col = (c: string): string => (unindexed ? `+${c}` : c)
  let never = false
  for (const key of COLUMN_FILTERS) {
    const values = valuesOf(f[key])
    if (!values) continue
    if (!shape.columns.has(key)) {
      never = true // e.g. topic on a v1/v2 file: every row's topic is NULL
      continue
    }
    conds.push(`${col(key)} IN (${values.map(() => '?').join(', ')})`)
    params.push(...values)
  }
  const to = valuesOf(f.to_agent)
  if (to) {
    const all = [...new Set([...to, BROADCAST])]
    conds.push(`${col('to_agent')} IN (${all.map(() => '?').join(', ')})`)
    params.push(...all)
  }
  const excluded = valuesOf(f.exclude_from_agent)
  if (excluded) {
    conds.push(`from_agent NOT IN (${excluded.map(() => '?').join(', ')})`)
    params.push(...excluded)
  }
  if (f.text) {
    conds.push("body LIKE ? ESCAPE '\\'")
    params.push(`%${f.text.replace(/[\\%_]/g, (c) => '\\' + c)}%`)
  }
  if (f.since_created_at) {
    conds.push(`${col('created_at')} >= ?`)
    params.push(f.since_created_at)
  }
  return { sql: conds.join(' AND '), params, never }
}

/** The envelope columns, with NULL (or the default) for columns an older file lacks. */
export function selectList(shape: HubShape): string {
  const c = (name: string, fallback = 'NULL'): string => (shape.columns.has(name) ? name : `${fallback} AS ${name}`)
  return [
    'rowid AS rowid',
    'id',
    c('origin_replica'),
    c('origin_seq'),
    c('hlc'),
    'type',
    'stream',
    'room',
    c('topic'),
    'from_agent',
    c('to_agent'),
    c('correlation_id'),
    c('branch'),
    c('base_commit'),
    c('status'),
    c('body', "''"),
    'created_at',
    c('metadata_json', "'{}'")
  ].join(', ')
}

/** A page query: rowid bounds (exclusive), order, and how many rows. */
export interface PageQuery {
  filters: EventFilters
  /** Exclusive lower rowid bound (a `since_event_id` anchor), 0 for none. */
  after: Rowid
  /** Exclusive upper rowid bound (a `before_event_id` anchor), null for none. */
  before: Rowid | null
  order: 'asc' | 'desc'
  limit: number
}

/** How `queryPage` ran (for EXPLAIN, tests and the bench). */
export type PagePlan = 'never' | 'scan' | `index:${string}`

/** Runs a page query with the cheapest plan and returns the raw rows (with `rowid`). */
export function queryPage<Row>(db: Db, shape: HubShape, q: PageQuery): { rows: Row[]; plan: PagePlan } {
  if (!shape.hasEvents) return { rows: [], plan: 'never' }
  const where = buildWhere(q.filters, shape)
  if (where.never) return { rows: [], plan: 'never' }
  const end = nextRowid(topRowid(db))
  const lo = q.after
  const hi = q.before === null ? end : minRowid(q.before, end)
  if (span(lo, hi) <= 1) return { rows: [], plan: 'scan' }
  const index = span(lo, hi) - 1 > SHORT_RANGE && where.sql ? selectiveIndex(db, shape, q.filters, lo, hi) : null
  if (index) return { rows: indexQuery<Row>(db, shape, where, index, lo, hi, q), plan: `index:${index}` }
  const scanned = scanWindows<Row>(db, shape, q, lo, hi)
  if (scanned) return { rows: scanned, plan: 'scan' }
  // Dense-looking filters that are sparse together: hand the remaining work to the best index.
  const fallback = bestIndex(db, shape, q.filters, lo, hi, Number.MAX_SAFE_INTEGER)
  return fallback
    ? { rows: indexQuery<Row>(db, shape, where, fallback, lo, hi, q), plan: `index:${fallback}` }
    : { rows: scanAll<Row>(db, shape, q, lo, hi), plan: 'scan' }
}

function selectiveIndex(db: Db, shape: HubShape, f: EventFilters, lo: Rowid, hi: Rowid): string | null {
  return bestIndex(db, shape, f, lo, hi, PROBE_CAP)
}

/** The indexed filter with the fewest entries in range (counted index-only, up to `cap`); null if none under cap. */
function bestIndex(db: Db, shape: HubShape, f: EventFilters, lo: Rowid, hi: Rowid, cap: number): string | null {
  let best: { name: string; n: number } | null = null
  for (const [key, name] of INDEXED) {
    const values = key === 'to_agent' ? [...new Set([...(valuesOf(f.to_agent) ?? []), BROADCAST])] : valuesOf(f[key] as OneOrMany)
    if (!values || !valuesOf(f[key] as OneOrMany) || !shape.indexes.has(name) || !shape.columns.has(key)) continue
    const probeCap = Math.min(cap, best ? best.n : cap)
    const n = (
      db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT 1 FROM events INDEXED BY ${name} WHERE ${key} IN (${values.map(() => '?').join(', ')})
           AND rowid > ? AND rowid < ? LIMIT ?)`
        )
        .get(...values, lo, hi, probeCap) as { n: number }
    ).n
    if (n < probeCap && (!best || n < best.n)) best = { name, n }
  }
  return best?.name ?? null
}

function indexQuery<Row>(db: Db, shape: HubShape, where: Where, index: string, lo: Rowid, hi: Rowid, q: PageQuery): Row[] {
  const sql = `SELECT ${selectList(shape)} FROM events INDEXED BY ${index} WHERE ${where.sql} AND rowid > ? AND rowid < ?
    ORDER BY rowid ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`
  return db.prepare(sql).all(...where.params, lo, hi, q.limit) as Row[]
}

/**
 * Rowid-ordered scan in windows of WINDOW rows (found by position on the rowid b-tree, so a gap in
 * the rowids, even one of 2^63, costs nothing); null when the scan budget ran out before the page
 * filled. Without filters the page is simply the next rows of the b-tree.
 */
function scanWindows<Row>(db: Db, shape: HubShape, q: PageQuery, lo: Rowid, hi: Rowid): Row[] | null {
  const where = buildWhere(q.filters, shape, true)
  if (!where.sql) return scanAll<Row>(db, shape, q, lo, hi)
  const desc = q.order === 'desc'
  const stmt = db.prepare(
    `SELECT ${selectList(shape)} FROM events WHERE rowid > ? AND rowid < ? AND ${where.sql}
     ORDER BY rowid ${desc ? 'DESC' : 'ASC'} LIMIT ?`
  )
  // the rowid WINDOW rows away from a bound, inside (lo, hi); null when fewer rows are left
  const edge = desc
    ? (b: Rowid) =>
        exactRowid(db, 'SELECT rowid FROM events WHERE rowid < ? AND rowid > ? ORDER BY rowid DESC LIMIT 1 OFFSET ?', b, lo, WINDOW)
    : (a: Rowid) =>
        exactRowid(db, 'SELECT rowid FROM events WHERE rowid > ? AND rowid < ? ORDER BY rowid ASC LIMIT 1 OFFSET ?', a, hi, WINDOW)
  const rows: Row[] = []
  let scanned = 0
  let a: Rowid = lo
  let b: Rowid = hi
  for (;;) {
    // the window (a, b) holds at most WINDOW rows; its far edge row is the next window's first
    const e = desc ? edge(b) : edge(a)
    if (desc) a = e === null ? lo : e
    else b = e === null ? hi : e
    rows.push(...(stmt.all(a, b, ...where.params, q.limit - rows.length) as Row[]))
    scanned += WINDOW
    if (rows.length >= q.limit || e === null) return rows
    if (scanned >= SCAN_BUDGET) {
      if (rows.length === 0) return null
      // Continue past what we have with the rest of the range (still rowid-ordered).
      const rest = desc
        ? scanAll<Row>(db, shape, { ...q, limit: q.limit - rows.length }, lo, nextRowid(a))
        : scanAll<Row>(db, shape, { ...q, limit: q.limit - rows.length }, rowidOf(BigInt(b) - 1n), hi)
      return [...rows, ...rest]
    }
    if (desc) b = nextRowid(a)
    else a = rowidOf(BigInt(b) - 1n)
  }
}

function scanAll<Row>(db: Db, shape: HubShape, q: PageQuery, lo: Rowid, hi: Rowid): Row[] {
  const where = buildWhere(q.filters, shape)
  const sql = `SELECT ${selectList(shape)} FROM events WHERE rowid > ? AND rowid < ?${where.sql ? ' AND ' + where.sql : ''}
    ORDER BY rowid ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`
  return db.prepare(sql).all(lo, hi, ...where.params, q.limit) as Row[]
}
