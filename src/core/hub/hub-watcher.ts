/**
 * Live tail of registered hubs for the long-running service. Each hub gets a dedicated read
 * connection polled with `PRAGMA data_version` every 50 ms (a cheap counter that changes when any
 * other connection commits) and an `fs.watch` on the palace folder that wakes it early when the
 * `-wal` file changes. New rows are pushed in batches (`onEvents`) and the operator's inbox
 * growth is reported once per batch (`onInbox`). Errors (locked, corrupt, missing) are retried.
 */
import { watch, type FSWatcher } from 'node:fs'
import { HubConnection } from './hub-connection'
import { latestInboxOn, unreadOn } from './inbox'
import { previewEvent, toEvents, type ListedEvent } from './reader'
import { queryPage } from './event-query'
import { HUB_FILENAME } from './schema'
import type { EventRow } from './writer'

/** A hub to watch: its display name and palace. */
export interface WatchedHub {
  name: string
  palace: string
}

/** Callbacks and settings of the watcher. */
export interface HubWatcherOptions {
  onEvents(hub: WatchedHub, events: ListedEvent[]): void
  onInbox(hub: WatchedHub, unread: number, latest: ListedEvent | null): void
  /** The operator's agent id now (settings can change). */
  operator(): string
  /** The operator's inbox cursor (rowid) in a hub. */
  inboxAfter(palace: string): number
  /** Poll interval (default 50 ms). */
  pollMs?: number
}

/** Rows pushed per `hub.events` batch at most. */
const BATCH = 500

class Tail {
  readonly conn: HubConnection
  private lastSeq: number | null = null
  private dataVersion: number | null = null
  private fsWatcher: FSWatcher | null = null
  private busy = false
  private lastUnread = -1
  /** A hub created after the tail started is pushed from its first row, not from its tip. */
  private readonly fromStart: boolean

  constructor(readonly hub: WatchedHub, private readonly opts: HubWatcherOptions) {
    this.conn = new HubConnection(hub.palace, { busyTimeoutMs: 1_000 })
    this.fromStart = !this.conn.exists()
    this.arm()
  }

  /** Watches the palace folder for `-wal` writes (best effort: polling covers platforms without it). */
  private arm(): void {
    try {
      this.fsWatcher = watch(this.conn.palace, { persistent: false }, (_kind, file) => {
        if (!file || String(file).startsWith(HUB_FILENAME)) this.check()
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

  /** Looks for new rows; cheap when nothing changed. */
  check(): void {
    if (this.busy || !this.conn.exists()) return
    this.busy = true
    try {
      if (!this.fsWatcher) this.arm()
      this.conn.read((db, shape) => {
        const version = db.pragma('data_version', { simple: true }) as number
        if (version === this.dataVersion && this.lastSeq !== null) return
        this.dataVersion = version
        if (!shape.hasEvents) return
        if (this.lastSeq === null) {
          // First look: start at the tip (history is read through hub.list), but know the inbox.
          this.lastSeq = this.fromStart ? 0 : ((db.prepare('SELECT max(rowid) AS m FROM events').get() as { m: number | null }).m ?? 0)
          this.reportInbox(db, shape, true)
          if (!this.fromStart) return
        }
        let grew = false
        for (;;) {
          const { rows } = queryPage<EventRow>(db, shape, { filters: {}, after: this.lastSeq, before: null, order: 'asc', limit: BATCH })
          if (rows.length === 0) break
          const events = toEvents(db, shape, rows)
          this.lastSeq = events[events.length - 1]!.seq
          const me = this.opts.operator()
          grew ||= events.some((e) => e.from_agent !== me && (e.to_agent === me || e.to_agent === '*'))
          this.opts.onEvents(this.hub, events.map(previewEvent))
          if (rows.length < BATCH) break
        }
        if (grew) this.reportInbox(db, shape, false)
      })
    } catch {
      // locked or corrupt right now: try again on the next tick
    } finally {
      this.busy = false
    }
  }

  private reportInbox(db: Parameters<typeof unreadOn>[0], shape: Parameters<typeof unreadOn>[1], initial: boolean): void {
    const me = this.opts.operator()
    const after = this.opts.inboxAfter(this.conn.palace)
    const unread = unreadOn(db, shape, me, after)
    if (initial) {
      this.lastUnread = unread
      return
    }
    if (unread > this.lastUnread || this.lastUnread < 0) this.opts.onInbox(this.hub, unread, latestInboxOn(db, shape, me, after))
    this.lastUnread = unread
  }

  /** Call after the operator marked the inbox read: the next growth is measured from here. */
  resetInbox(unread: number): void {
    this.lastUnread = unread
  }

  close(): void {
    this.disarm()
    this.conn.close()
  }
}

/** Tails a set of hubs; `sync` with the registry whenever it changes. */
export class HubWatcher {
  private readonly tails = new Map<string, Tail>()
  private readonly timer: NodeJS.Timeout

  constructor(private readonly opts: HubWatcherOptions) {
    this.timer = setInterval(() => this.checkAll(), opts.pollMs ?? 50)
    this.timer.unref?.()
  }

  /** Starts tails for new hubs and stops those no longer listed (keyed by palace). */
  sync(hubs: readonly WatchedHub[]): void {
    const wanted = new Map(hubs.map((h) => [h.palace, h]))
    for (const [palace, tail] of this.tails) {
      if (!wanted.has(palace) || wanted.get(palace)!.name !== tail.hub.name) {
        tail.close()
        this.tails.delete(palace)
      }
    }
    for (const [palace, hub] of wanted) {
      if (!this.tails.has(palace)) {
        const tail = new Tail(hub, this.opts)
        this.tails.set(palace, tail)
        tail.check()
      }
    }
  }

  /** Checks every hub now. */
  checkAll(): void {
    for (const tail of this.tails.values()) tail.check()
  }

  /** Tells the tail of `palace` the inbox was read down to `unread`. */
  inboxRead(palace: string, unread: number): void {
    this.tails.get(palace)?.resetInbox(unread)
  }

  /** Stops every tail. */
  close(): void {
    clearInterval(this.timer)
    for (const tail of this.tails.values()) tail.close()
    this.tails.clear()
  }
}
