/**
 * Which rows of a hub are new since a point: what the live tail pushes and a wait without a cursor
 * waits for. On an ordinary hub that is simply `rowid > cursor`. A row another writer placed above
 * 2^53 (`SEQUENCE_CEILING`) splits the rowids in two regions: rows in sequence (at or below it)
 * and rows out of sequence (above it). Once a row sits at the top rowid (2^63 - 1) nothing can
 * follow it: Muster's writer puts new rows back in sequence (`inSequenceRowid`) and SQLite gives
 * other writers' rows random rowids, most of them above 2^53 and below the highest seen. So a
 * frontier keeps one cursor per region, plus the out-of-sequence rowids it has already seen while
 * they are few (up to `KNOWN_CAP`): a row that lands below the high cursor is found by set
 * difference, never missed, never repeated. No rowid is ever computed, only compared and bound.
 */
import type { Db } from '../../sqlite'
import type { HubShape } from './hub-connection'
import { buildWhere, exactRowid, queryRange, rowidOf, SEQUENCE_CEILING, selectList, type EventFilters, type Rowid } from './event-query'
import type { EventRow } from './writer'

/** Out-of-sequence rowids remembered at most (beyond, a row placed below the high cursor is not looked for). */
export const KNOWN_CAP = 4096

/** A row with its exact rowid (what advances a frontier). */
export interface FrontierRow {
  row: EventRow
  rowid: Rowid
}

/** The new rows of a hub since a point, region by region. */
export class Frontier {
  /** Exclusive cursor in sequence; null = from the first row (rowids may be negative). */
  private low: Rowid | null
  /** Exclusive cursor out of sequence; null = from 2^53. */
  private high: Rowid | null
  /** Out-of-sequence rowids seen (as strings), or null once there were too many to keep. */
  private known: Set<string> | null

  private constructor(low: Rowid | null, high: Rowid | null, known: Set<string> | null) {
    this.low = low
    this.high = high
    this.known = known
  }

  /** Every row is new. */
  static fromStart(): Frontier {
    return new Frontier(null, null, new Set())
  }

  /** Only rows written from now on are new. */
  static atTip(db: Db): Frontier {
    const low = exactRowid(db, 'SELECT max(rowid) FROM events WHERE rowid <= ?', SEQUENCE_CEILING)
    const high = exactRowid(db, 'SELECT max(rowid) FROM events WHERE rowid > ?', SEQUENCE_CEILING)
    return new Frontier(low, high, high === null ? new Set() : knownHigh(db, null))
  }

  /**
   * Rows after the row at `rowid`, as upstream's cursors mean it (`rowid >` it) in its region; in
   * the other region, the rows written from now on, or, for a row in sequence, every row out of
   * sequence above it (they are all `rowid >` it).
   */
  static after(db: Db, rowid: Rowid): Frontier {
    if (BigInt(rowid) <= SEQUENCE_CEILING) return new Frontier(rowid, null, new Set())
    const low = exactRowid(db, 'SELECT max(rowid) FROM events WHERE rowid <= ?', SEQUENCE_CEILING)
    return new Frontier(low, rowid, knownHigh(db, rowid))
  }

  /** True when nothing was seen yet in either region (a tail started from the first row). */
  get fresh(): boolean {
    return this.low === null && this.high === null
  }

  /**
   * The next new rows matching `filters` (at most `limit`), in sequence first, each region in
   * rowid order; the frontier moves past them.
   */
  next(db: Db, shape: HubShape, filters: EventFilters, limit: number): FrontierRow[] {
    const out: FrontierRow[] = []
    const take = (rows: EventRow[]): void => {
      for (const row of rows)
        out.push({ row, rowid: row.rowid <= Number.MAX_SAFE_INTEGER ? row.rowid : (exactOf(db, row.id) ?? row.rowid) })
    }
    // in sequence: (low, 2^53]
    take(
      queryRange<EventRow>(
        db,
        shape,
        { filters, order: 'asc', limit },
        {
          lo: this.low === null ? null : { at: this.low, inclusive: false },
          hi: { at: rowidOf(SEQUENCE_CEILING), inclusive: true }
        }
      ).rows
    )
    const lowRows = out.length
    if (lowRows) this.low = out[lowRows - 1]!.rowid
    // out of sequence, placed below the high cursor since it was last read
    if (out.length < limit && this.high !== null && this.known) take(this.placedBelow(db, shape, filters))
    // out of sequence, above the high cursor
    if (out.length < limit) {
      const above = queryRange<EventRow>(
        db,
        shape,
        { filters, order: 'asc', limit: limit - out.length },
        {
          lo: { at: this.high ?? rowidOf(SEQUENCE_CEILING), inclusive: false },
          hi: null
        }
      ).rows
      take(above)
    }
    for (const r of out.slice(lowRows)) {
      if (this.high === null || BigInt(r.rowid) > BigInt(this.high)) this.high = r.rowid
      this.known?.add(String(r.rowid))
    }
    if (this.known && this.known.size > KNOWN_CAP) this.known = null
    return out
  }

  /**
   * Rows out of sequence below the high cursor that were not seen (random rowids after a row at the
   * top), matching `filters`; every one looked at is seen from now on (rows never change, so one
   * that does not match never will).
   */
  private placedBelow(db: Db, shape: HubShape, filters: EventFilters): EventRow[] {
    const rowids = db
      .prepare('SELECT rowid FROM events WHERE rowid > ? AND rowid < ? ORDER BY rowid LIMIT ?')
      .pluck()
      .safeIntegers(true)
      .all(SEQUENCE_CEILING, this.high, KNOWN_CAP + 1) as bigint[]
    if (rowids.length > KNOWN_CAP) {
      this.known = null
      return []
    }
    const unseen = rowids.filter((r) => !this.known!.has(String(rowidOf(r))))
    if (unseen.length === 0) return []
    const where = buildWhere(filters, shape)
    const rows: EventRow[] = []
    if (!where.never)
      for (let i = 0; i < unseen.length; i += 500) {
        const chunk = unseen.slice(i, i + 500)
        rows.push(
          ...(db
            .prepare(
              `SELECT ${selectList(shape)} FROM events WHERE rowid IN (${chunk.map(() => '?').join(', ')})${where.sql ? ' AND ' + where.sql : ''} ORDER BY rowid`
            )
            .all(...chunk, ...where.params) as EventRow[])
        )
      }
    for (const r of unseen) this.known!.add(String(rowidOf(r)))
    return rows
  }
}

/** The exact rowid of an event by id. */
function exactOf(db: Db, id: string): Rowid | null {
  return exactRowid(db, 'SELECT rowid FROM events WHERE id = ?', id)
}

/** The out-of-sequence rowids at or below `upTo` (all when null), or null when there are more than `KNOWN_CAP`. */
function knownHigh(db: Db, upTo: Rowid | null): Set<string> | null {
  const rowids = db
    .prepare(`SELECT rowid FROM events WHERE rowid > ?${upTo === null ? '' : ' AND rowid <= ?'} LIMIT ?`)
    .pluck()
    .safeIntegers(true)
    .all(...(upTo === null ? [SEQUENCE_CEILING] : [SEQUENCE_CEILING, upTo]), KNOWN_CAP + 1) as bigint[]
  return rowids.length > KNOWN_CAP ? null : new Set(rowids.map((r) => String(rowidOf(r))))
}
