/**
 * The live tail of a local hub file (`Hub.subscribe`): a dedicated read connection polled with
 * `PRAGMA data_version` every 50 ms (a cheap counter that changes when any other connection
 * commits) and an `fs.watch` on the palace folder that wakes it early when the `-wal` file
 * changes. New rows go to the listener in batches of at most 500, in seq order. A hub that is
 * missing, locked or corrupt is retried on the next tick; the listener hears about the change.
 */
import { watch, type FSWatcher } from 'node:fs'
import type { Db } from '../../sqlite'
import { exactRowid } from './event-query'
import { Frontier } from './frontier'
import { HubConnection } from './hub-connection'
import type { HubSubscription, TailListener, TailStart } from '../hub-port'
import { toEvents } from './reader'
import { HUB_FILENAME } from './schema'

/** Rows per batch at most. */
const BATCH = 500
/** Poll interval: a new row reaches the listener within ~50 ms even without fs events. */
const DEFAULT_POLL_MS = 50

/** A running tail of one palace. */
export class LocalTail implements HubSubscription {
  private readonly conn: HubConnection
  private readonly timer: NodeJS.Timeout
  /** What was delivered (null before the first read): see `frontier.ts` for hubs with rows out of sequence. */
  private frontier: Frontier | null = null
  /** The id of the last event delivered: where to go on in a hub file that replaced the old one. */
  private lastId: string | null = null
  private fileGen = 0
  private dataVersion: string | null = null
  private fsWatcher: FSWatcher | null = null
  private busy = false
  private closed = false
  private lastProblem: string | null | undefined = undefined
  private readonly start: TailStart

  constructor(
    palace: string,
    start: TailStart,
    private readonly listener: TailListener,
    opts: { pollMs?: number } = {}
  ) {
    this.conn = new HubConnection(palace)
    // A hub created after the tail started is pushed from its first row, not from its tip.
    this.start = 'from' in start && start.from === 'tip' && !this.conn.exists() ? { from: 'start' } : start
    this.arm()
    this.timer = setInterval(() => this.poke(), opts.pollMs ?? DEFAULT_POLL_MS)
    this.timer.unref?.()
    this.poke()
  }

  /** Watches the palace folder for `-wal` writes (best effort: polling covers platforms without it). */
  private arm(): void {
    try {
      this.fsWatcher = watch(this.conn.palace, { persistent: false }, (_kind, file) => {
        if (!file || String(file).startsWith(HUB_FILENAME)) this.poke()
      })
      this.fsWatcher.on('error', () => this.disarm())
    } catch {
      this.fsWatcher = null // folder missing: the poll keeps trying
    }
  }

  private disarm(): void {
    this.fsWatcher?.close()
    this.fsWatcher = null
  }

  /** Looks for new rows now; cheap when nothing changed. */
  poke(): void {
    if (this.busy || this.closed) return
    if (!this.conn.exists()) return this.report(`no hub at ${this.conn.palace} (${HUB_FILENAME} does not exist)`)
    this.busy = true
    try {
      if (!this.fsWatcher) this.arm()
      this.conn.read((db, shape) => {
        // data_version is per connection: a reopened reader (an immutable snapshot that went stale) starts over.
        const version = `${this.conn.readerGeneration}:${db.pragma('data_version', { simple: true }) as number}`
        if (version === this.dataVersion && this.frontier !== null) return
        this.dataVersion = version
        if (!shape.hasEvents) return
        if (this.conn.fileGeneration !== this.fileGen) {
          // the hub file was replaced: go on after the last event delivered if the new file has it, else from its start
          this.fileGen = this.conn.fileGeneration
          if (this.frontier !== null) this.frontier = this.lastId === null ? this.startAt(db) : this.after(db, this.lastId)
        }
        if (this.frontier === null) this.frontier = this.startAt(db)
        for (;;) {
          const rows = this.frontier.next(db, shape, {}, BATCH)
          if (rows.length === 0) break
          const events = toEvents(
            db,
            shape,
            rows.map((r) => r.row)
          )
          this.lastId = events[events.length - 1]!.id
          this.listener.events(events)
          if (rows.length < BATCH || this.closed) break
        }
      })
      this.report(null)
    } catch (err) {
      // locked or corrupt right now: try again on the next tick
      this.report((err as Error).message)
    } finally {
      this.busy = false
    }
  }

  /** After an event of the file, or from its first row when the file does not hold it. */
  private after(db: Db, id: string): Frontier {
    const rowid = exactRowid(db, 'SELECT rowid FROM events WHERE id = ?', id)
    return rowid === null ? Frontier.fromStart() : Frontier.after(db, rowid)
  }

  /** Where the tail starts: after an event (a vanished one replays from the start), at the tip, or from the first row. */
  private startAt(db: Db): Frontier {
    if ('after_id' in this.start) return this.after(db, this.start.after_id)
    if (this.start.from === 'start') return Frontier.fromStart()
    return Frontier.atTip(db)
  }

  /** Tells the listener when the tail's health changes (null = reading fine). */
  private report(problem: string | null): void {
    if (problem === this.lastProblem) return
    this.lastProblem = problem
    this.listener.health?.({ online: problem === null, offline_reason: problem })
  }

  /** Stops polling and closes the connection. */
  close(): void {
    this.closed = true
    clearInterval(this.timer)
    this.disarm()
    this.conn.close()
  }
}
