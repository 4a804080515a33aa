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
 * row at 9223372036854775807: its neighbours must stay distinct, or a cursor repeats or skips it).
 * Rowids are only ever compared and bound as they are: no code here adds to or subtracts from one,
 * so no bound ever passes the int64 range (a `max + 1` at the top was issue 36's 500).
 */
export type Rowid = number | bigint

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)
/** The largest rowid SQLite can hold (2^63 - 1): once a row sits there, SQLite picks new rowids at random. */
export const TOP_ROWID = 9223372036854775807n
/**
 * Above this rowid (2^53) a row was placed by its writer, never handed out in turn (no hub holds
 * 2^53 rows): it is "out of sequence", and so is every row SQLite numbers after it.
 */
export const SEQUENCE_CEILING = 9007199254740992n
/** A bigint rowid as a number when that is exact. */
export const rowidOf = (v: bigint | number): Rowid => (typeof v === 'bigint' && v <= SAFE && v >= -SAFE ? Number(v) : v)
/** The larger of two rowids. */
export const maxRowid = (a: Rowid, b: Rowid): Rowid => (a >= b ? a : b)
/** The smaller of two rowids. */
export const minRowid = (a: Rowid, b: Rowid): Rowid => (a <= b ? a : b)
/** True for a rowid above 2^53: placed by its writer (or numbered after such a row), out of sequence. */
export const outOfSequence = (r: Rowid): boolean => BigInt(r) > SEQUENCE_CEILING
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

/** One end of a rowid range: the rowid and whether it belongs to the range. */
export interface RowidBound {
  at: Rowid
  inclusive: boolean
}

/** A rowid range; a missing end is open (a table's rowids may even be negative). */
export interface RowidRange {
  lo: RowidBound | null
  hi: RowidBound | null
}

/** The range's SQL condition on `rowid` (`1` when both ends are open) and its parameters. */
export function rangeSql(r: RowidRange): { sql: string; params: Rowid[] } {
  const conds: string[] = []
  const params: Rowid[] = []
  if (r.lo) {
    conds.push(r.lo.inclusive ? 'rowid >= ?' : 'rowid > ?')
    params.push(r.lo.at)
  }
  if (r.hi) {
    conds.push(r.hi.inclusive ? 'rowid <= ?' : 'rowid < ?')
    params.push(r.hi.at)
  }
  return { sql: conds.length ? conds.join(' AND ') : '1', params }
}

/** True when no rowid can lie in the range. */
function emptyRange(r: RowidRange): boolean {
  if (!r.lo || !r.hi) return false
  const lo = BigInt(r.lo.at)
  const hi = BigInt(r.hi.at)
  return r.lo.inclusive && r.hi.inclusive ? hi < lo : hi <= lo
}

/** How many rowids the range spans, with open ends taken at the table's first and last row (a size heuristic). */
function rangeSpan(db: Db, r: RowidRange): number {
  const lo = r.lo ? r.lo.at : (exactRowid(db, 'SELECT min(rowid) FROM events') ?? 0)
  const hi = r.hi ? r.hi.at : topRowid(db)
  return span(lo, hi)
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
  /** Exclusive lower rowid bound (a `since_event_id` anchor), null for none. */
  after: Rowid | null
  /** Exclusive upper rowid bound (a `before_event_id` anchor), null for none. */
  before: Rowid | null
  order: 'asc' | 'desc'
  limit: number
}

/** How `queryPage` ran (for EXPLAIN, tests and the bench). */
export type PagePlan = 'never' | 'scan' | `index:${string}`

/** Runs a page query with the cheapest plan and returns the raw rows (with `rowid`). */
export function queryPage<Row>(db: Db, shape: HubShape, q: PageQuery): { rows: Row[]; plan: PagePlan } {
  const range: RowidRange = {
    lo: q.after === null ? null : { at: q.after, inclusive: false },
    hi: q.before === null ? null : { at: q.before, inclusive: false }
  }
  return queryRange<Row>(db, shape, q, range)
}

/** `queryPage` over any rowid range (the live tail reads the two regions of a hub with it). */
export function queryRange<Row>(
  db: Db,
  shape: HubShape,
  q: Pick<PageQuery, 'filters' | 'order' | 'limit'>,
  range: RowidRange
): { rows: Row[]; plan: PagePlan } {
  if (!shape.hasEvents) return { rows: [], plan: 'never' }
  const where = buildWhere(q.filters, shape)
  if (where.never) return { rows: [], plan: 'never' }
  if (emptyRange(range)) return { rows: [], plan: 'scan' }
  const index = where.sql && rangeSpan(db, range) > SHORT_RANGE ? selectiveIndex(db, shape, q.filters, range) : null
  if (index) return { rows: indexQuery<Row>(db, shape, where, index, range, q), plan: `index:${index}` }
  const scanned = scanWindows<Row>(db, shape, q, range)
  if (scanned) return { rows: scanned, plan: 'scan' }
  // Dense-looking filters that are sparse together: hand the remaining work to the best index.
  const fallback = bestIndex(db, shape, q.filters, range, Number.MAX_SAFE_INTEGER)
  return fallback
    ? { rows: indexQuery<Row>(db, shape, where, fallback, range, q), plan: `index:${fallback}` }
    : { rows: scanAll<Row>(db, shape, q, range), plan: 'scan' }
}

function selectiveIndex(db: Db, shape: HubShape, f: EventFilters, range: RowidRange): string | null {
  return bestIndex(db, shape, f, range, PROBE_CAP)
}

/** The indexed filter with the fewest entries in range (counted index-only, up to `cap`); null if none under cap. */
function bestIndex(db: Db, shape: HubShape, f: EventFilters, range: RowidRange, cap: number): string | null {
  let best: { name: string; n: number } | null = null
  const r = rangeSql(range)
  for (const [key, name] of INDEXED) {
    const values = key === 'to_agent' ? [...new Set([...(valuesOf(f.to_agent) ?? []), BROADCAST])] : valuesOf(f[key] as OneOrMany)
    if (!values || !valuesOf(f[key] as OneOrMany) || !shape.indexes.has(name) || !shape.columns.has(key)) continue
    const probeCap = Math.min(cap, best ? best.n : cap)
    const n = (
      db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT 1 FROM events INDEXED BY ${name} WHERE ${key} IN (${values.map(() => '?').join(', ')})
           AND ${r.sql} LIMIT ?)`
        )
        .get(...values, ...r.params, probeCap) as { n: number }
    ).n
    if (n < probeCap && (!best || n < best.n)) best = { name, n }
  }
  return best?.name ?? null
}

function indexQuery<Row>(
  db: Db,
  shape: HubShape,
  where: Where,
  index: string,
  range: RowidRange,
  q: Pick<PageQuery, 'order' | 'limit'>
): Row[] {
  const r = rangeSql(range)
  const sql = `SELECT ${selectList(shape)} FROM events INDEXED BY ${index} WHERE ${where.sql} AND ${r.sql}
    ORDER BY rowid ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`
  return db.prepare(sql).all(...where.params, ...r.params, q.limit) as Row[]
}

/**
 * Rowid-ordered scan in windows of WINDOW rows (found by position on the rowid b-tree, so a gap in
 * the rowids, even one of 2^63, costs nothing); null when the scan budget ran out before the page
 * filled. Without filters the page is simply the next rows of the b-tree. Each window ends at a row
 * (exclusive) that begins the next one (inclusive): no rowid is ever computed.
 */
function scanWindows<Row>(db: Db, shape: HubShape, q: Pick<PageQuery, 'filters' | 'order' | 'limit'>, range: RowidRange): Row[] | null {
  const where = buildWhere(q.filters, shape, true)
  if (!where.sql) return scanAll<Row>(db, shape, q, range)
  const desc = q.order === 'desc'
  const rows: Row[] = []
  let scanned = 0
  let rest: RowidRange = range
  for (;;) {
    // the row WINDOW rows into what is left, from the near end; null when fewer rows are left
    const left = rangeSql(rest)
    const e = exactRowid(
      db,
      `SELECT rowid FROM events WHERE ${left.sql} ORDER BY rowid ${desc ? 'DESC' : 'ASC'} LIMIT 1 OFFSET ?`,
      ...left.params,
      WINDOW
    )
    // the window: what is left, cut short at e (exclusive); the next window starts at e (inclusive)
    const window: RowidRange =
      e === null ? rest : desc ? { lo: { at: e, inclusive: false }, hi: rest.hi } : { lo: rest.lo, hi: { at: e, inclusive: false } }
    const w = rangeSql(window)
    rows.push(
      ...(db
        .prepare(`SELECT ${selectList(shape)} FROM events WHERE ${w.sql} AND ${where.sql} ORDER BY rowid ${desc ? 'DESC' : 'ASC'} LIMIT ?`)
        .all(...w.params, ...where.params, q.limit - rows.length) as Row[])
    )
    scanned += WINDOW
    if (rows.length >= q.limit || e === null) return rows
    rest = desc ? { lo: range.lo, hi: { at: e, inclusive: true } } : { lo: { at: e, inclusive: true }, hi: range.hi }
    if (scanned >= SCAN_BUDGET) {
      if (rows.length === 0) return null
      // Continue past what we have with the rest of the range (still rowid-ordered).
      return [...rows, ...scanAll<Row>(db, shape, { ...q, limit: q.limit - rows.length }, rest)]
    }
  }
}

function scanAll<Row>(db: Db, shape: HubShape, q: Pick<PageQuery, 'filters' | 'order' | 'limit'>, range: RowidRange): Row[] {
  const where = buildWhere(q.filters, shape)
  const r = rangeSql(range)
  const sql = `SELECT ${selectList(shape)} FROM events WHERE ${r.sql}${where.sql ? ' AND ' + where.sql : ''}
    ORDER BY rowid ${q.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`
  return db.prepare(sql).all(...r.params, ...where.params, q.limit) as Row[]
}
