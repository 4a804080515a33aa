/**
 * Task and patch threads kept between reads of one hub connection. The overview, the task list and
 * the needs queue fold the threads of the newest 500 task requests and 500 patches, several times
 * a second while rows arrive; reading and parsing those thousands of events every time was most of
 * `muster serve`'s work and garbage on a large hub. The hub is an append-only log, so a thread read
 * once only grows: each use first reads the rows added since the last one (one read, cheap near the
 * tip) and appends those of kept threads, then reads only the threads it does not hold.
 *
 * It starts over when it cannot be sure: another connection (the file was replaced or reopened),
 * a tip that went back, rowids past 2^53 (SQLite then picks rowids anywhere), or more new rows
 * than one catch-up reads. Threads no use asked for lately are dropped.
 */
import type { HubEvent } from '../../../shared/contract/hub-types'
import type { Db } from '../../sqlite'
import { queryPage, topRowid } from '../store/event-query'
import type { ReadStep } from '../store/hub-connection'
import { toEvents } from '../store/reader'
import type { EventRow } from '../store/writer'
import { readThreads } from './tasks'

/** New rows one catch-up reads at most; more, and the cache starts over. */
const CATCH_UP_ROWS = 5_000
/** A thread not asked for in this many uses is dropped (the overview alone asks twice: tasks, patches). */
const KEEP_USES = 4

/** The threads of one hub connection. */
export class ThreadCache {
  private db: Db | null = null
  /** The tip when the cache last caught up (rows above it are not in kept threads yet). */
  private top = 0
  private readonly threads = new Map<string, { events: HubEvent[]; used: number }>()
  private uses = 0

  /** A `ThreadSource`: the threads of `correlationIds`, from the cache where it holds them. */
  readonly read = async (read: ReadStep, correlationIds: string[]): Promise<Map<string, HubEvent[]>> => {
    const use = ++this.uses
    const caught = await read((db, shape) =>
      this.catchUp(db, {
        after: (rowid) =>
          queryPage<EventRow>(db, shape, { filters: {}, after: rowid, before: null, order: 'asc', limit: CATCH_UP_ROWS }).rows,
        parse: (rows) => toEvents(db, shape, rows)
      })
    )
    const missing = correlationIds.filter((id) => !this.threads.has(id))
    const fresh = await readThreads(read, missing)
    // threads read now are kept only when no other use caught up meanwhile: rows between their
    // snapshot and that catch-up's tip would never be appended
    const keep = caught !== null && this.top === caught
    const out = new Map<string, HubEvent[]>()
    for (const id of correlationIds) {
      const kept = this.threads.get(id)
      const events = kept?.events ?? fresh.get(id)
      if (kept) kept.used = use
      else if (keep) this.threads.set(id, { events: events ?? [], used: use })
      if (events?.length) out.set(id, events)
    }
    for (const [id, t] of this.threads) if (use - t.used >= KEEP_USES) this.threads.delete(id)
    return out
  }

  /** Appends the rows added since the last catch-up to kept threads; returns the tip, or null when nothing may be kept. */
  private catchUp(db: Db, io: { after: (rowid: number) => EventRow[]; parse: (rows: EventRow[]) => HubEvent[] }): number | null {
    const tip = topRowid(db)
    if (typeof tip !== 'number' || tip > Number.MAX_SAFE_INTEGER) {
      this.reset(db, 0)
      return null
    }
    if (db !== this.db || tip < this.top) return this.reset(db, tip)
    if (tip === this.top) return tip
    const rows = io.after(this.top)
    if (rows.length >= CATCH_UP_ROWS) return this.reset(db, tip)
    const mine = rows.filter((r) => r.correlation_id !== null && this.threads.has(r.correlation_id))
    for (const e of io.parse(mine)) {
      const kept = this.threads.get(e.correlation_id!)!
      const last = kept.events[kept.events.length - 1]
      // a thread read after the last catch-up may already hold the row
      if (!last || e.seq > last.seq) kept.events = [...kept.events, e]
    }
    this.top = tip
    return tip
  }

  private reset(db: Db, tip: number): number {
    this.db = db
    this.top = tip
    this.threads.clear()
    return tip
  }
}
