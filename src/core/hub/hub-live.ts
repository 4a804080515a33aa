/**
 * Live pushes for the long-running service: every known hub is tailed through `Hub.subscribe`;
 * new rows are pushed as `hub.events` (previewed, in batches) and growth of the operator's unread
 * inbox as one `hub.inbox` per batch (so the UI can notify), and health changes as `hub.status`
 * (a hub server unreachable, back online; a local file missing or locked). Works the same for any hub kind.
 */
import type { PushedEvent } from '../../shared/api'
import type { HubEvent } from '../../shared/contract/hub-types'
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import type { EventPosition, HubPort, HubSubscription } from './hub-port'
import { previewEvent } from './store/reader'

/** A hub to tail: its display name, location and implementation. */
export interface LiveHub {
  name: string
  location: string
  hub: HubPort
}

/** What the live pushes need. */
export interface HubLiveOptions {
  emit(event: PushedEvent): void
  /** The operator's agent id now. */
  operator(): string
  /** The operator's read position in a hub. */
  inboxAfter(location: string): EventPosition | null
}

interface Tail {
  live: LiveHub
  sub: HubSubscription
  /** Unread count last reported (-1 = not known yet). */
  lastUnread: number
  /** Inbox checks run one after another. */
  inboxChain: Promise<void>
}

/** Tails a set of hubs; `sync` it whenever the set changes. */
export class HubLive {
  private readonly tails = new Map<string, Tail>()
  private closed = false

  constructor(private readonly opts: HubLiveOptions) {}

  /** Starts tails for new hubs and stops those no longer listed (keyed by location). */
  sync(hubs: readonly LiveHub[]): void {
    if (this.closed) return
    const wanted = new Map(hubs.map((h) => [h.location, h]))
    for (const [location, tail] of this.tails) {
      const want = wanted.get(location)
      if (!want || want.name !== tail.live.name || want.hub !== tail.live.hub) {
        tail.sub.close()
        this.tails.delete(location)
      }
    }
    for (const [location, live] of wanted) if (!this.tails.has(location)) this.start(live)
  }

  private start(live: LiveHub): void {
    const tail: Tail = { live, sub: null as unknown as HubSubscription, lastUnread: -1, inboxChain: Promise.resolve() }
    this.tails.set(live.location, tail)
    tail.sub = live.hub.subscribe(
      { from: 'tip' },
      {
        events: (events) => this.onEvents(tail, events),
        health: (h) =>
          this.opts.emit({
            name: 'hub.status',
            payload: { hub: live.name, palace: live.location, online: h.online, offline_reason: h.offline_reason }
          })
      }
    )
    this.checkInbox(tail, true)
  }

  private onEvents(tail: Tail, events: HubEvent[]): void {
    const { name, location } = tail.live
    this.opts.emit({ name: 'hub.events', payload: { hub: name, palace: location, events: events.map(previewEvent) } })
    const me = this.opts.operator()
    if (events.some((e) => e.from_agent !== me && (e.to_agent === me || e.to_agent === BROADCAST))) this.checkInbox(tail, false)
  }

  /** Recounts the operator's unread inbox; pushes `hub.inbox` when it grew (not on the first count). */
  private checkInbox(tail: Tail, initial: boolean): void {
    tail.inboxChain = tail.inboxChain.then(async () => {
      if (this.tails.get(tail.live.location) !== tail) return
      const me = this.opts.operator()
      const after = this.opts.inboxAfter(tail.live.location)
      try {
        const unread = await tail.live.hub.unread(me, after)
        if (initial && tail.lastUnread < 0) {
          tail.lastUnread = unread
          return
        }
        if (unread > tail.lastUnread || tail.lastUnread < 0) {
          const latest = await tail.live.hub.latestInbox(me, after)
          this.opts.emit({ name: 'hub.inbox', payload: { hub: tail.live.name, palace: tail.live.location, unread, latest } })
        }
        tail.lastUnread = unread
      } catch {
        // unreadable right now: the next batch checks again
      }
    })
  }

  /** Looks for new rows in one hub now (after this process wrote to it). */
  poke(location: string): void {
    this.tails.get(location)?.sub.poke()
  }

  /** Tells the tail of `location` the inbox was read down to `unread`. */
  inboxRead(location: string, unread: number): void {
    const tail = this.tails.get(location)
    if (tail) tail.lastUnread = unread
  }

  /** Stops every tail. */
  close(): void {
    this.closed = true
    for (const tail of this.tails.values()) tail.sub.close()
    this.tails.clear()
  }
}
