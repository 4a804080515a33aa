/**
 * Keeps a remote hub's mirror (remote-mirror.ts) in step with its server, for as long as it runs:
 * resume the live stream after the mirror's tip, store every streamed event in order, and when the
 * server cannot be reached say why (unreachable, token refused, busy with Retry-After...) and try
 * again by itself with backoff. Resuming from the stored tip means no gap and no duplicate across
 * restarts of either side. An empty mirror starts from the server's first event (long-polled with
 * `mempalace_event_wait` while the hub is empty); a cursor the server no longer knows (another hub
 * now answers at that URL) resets the mirror and starts over.
 */
import type { HubEvent } from '../../../shared/contract/hub-types'
import { RemoteCallError, type McpClient, type RemoteEndpoint } from './remote-mcp'
import { toHubEvent, type HubMirror } from './remote-mirror'
import { DEFAULT_IDLE_TIMEOUT_MS, runStream } from './remote-stream'

/** The sync's view of the server. */
export interface SyncState {
  /** The live stream is open (or the server answered the last call). */
  online: boolean
  /** Why it is not, null when online. */
  offline_reason: string | null
  /** The mirror has reached the server's tip at least once since start. */
  caught_up: boolean
  /** The server answered at least once since start. */
  reached: boolean
}

/** Timing knobs (tests shorten them). */
export interface SyncOptions {
  /** First retry delay after a failure, doubled up to `retryMaxMs`. */
  retryMinMs?: number
  /** Longest retry delay: an offline hub is retried at least this often. */
  retryMaxMs?: number
  /** The stream is dead after this long without bytes (three missed pings). */
  idleTimeoutMs?: number
  /** Long-poll of an empty hub for its first event. */
  emptyPollMs?: number
}

/** First and longest pause between attempts: a restarted server is back within ~5 s. */
const RETRY_MIN_MS = 250
const RETRY_MAX_MS = 5_000
/** How long one call waits for an empty hub's first event (upstream allows up to 300 s). */
const EMPTY_POLL_MS = 30_000

type Listener = (state: SyncState) => void

/** The sync loop of one remote hub. */
export class RemoteSync {
  private state: SyncState = { online: false, offline_reason: null, caught_up: false, reached: false }
  private readonly listeners = new Set<Listener>()
  private readonly resetListeners = new Set<() => void>()
  private readonly seqWaiters = new Set<{ seq: number; done: () => void }>()
  private abort: AbortController | null = null
  private loop: Promise<void> | null = null
  private writes: Promise<void> = Promise.resolve()
  private remoteTip = 0
  private closed = false
  private readonly o: Required<SyncOptions>

  constructor(
    private readonly endpoint: RemoteEndpoint,
    private readonly mirror: HubMirror,
    private readonly mcp: McpClient,
    private readonly onConnect: () => Promise<void>,
    opts: SyncOptions = {}
  ) {
    this.o = {
      retryMinMs: opts.retryMinMs ?? RETRY_MIN_MS,
      retryMaxMs: opts.retryMaxMs ?? RETRY_MAX_MS,
      idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      emptyPollMs: opts.emptyPollMs ?? EMPTY_POLL_MS
    }
  }

  /** Starts the loop (idempotent). */
  start(): void {
    if (this.loop || this.closed) return
    this.abort = new AbortController()
    this.loop = this.run(this.abort.signal)
  }

  /** True once started. */
  get running(): boolean {
    return this.loop !== null
  }

  /** The current state. */
  current(): SyncState {
    return { ...this.state }
  }

  /** Hears every state change; returns the unsubscribe. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Hears when the mirror was reset (another hub answers at the URL now). */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener)
    return () => this.resetListeners.delete(listener)
  }

  /**
   * Resolves once the mirror has caught up with the server, or the server is known to be out of
   * reach (then the mirror answers with what it has), or after `timeoutMs`.
   */
  ready(timeoutMs: number): Promise<void> {
    this.start()
    const settled = (s: SyncState): boolean => s.caught_up || (!s.online && s.offline_reason !== null)
    if (settled(this.state)) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(finish, timeoutMs)
      const off = this.onChange((s) => settled(s) && finish())
      function finish(): void {
        clearTimeout(timer)
        off()
        resolve()
      }
    })
  }

  /** Resolves once the mirror has caught up with the server (never, if it never does). */
  caughtUp(): Promise<void> {
    this.start()
    if (this.state.caught_up) return Promise.resolve()
    return new Promise((resolve) => {
      const off = this.onChange((s) => {
        if (!s.caught_up) return
        off()
        resolve()
      })
    })
  }

  /** Resolves when the mirror holds `seq` (a write of ours came back through the stream), or after `timeoutMs`. */
  mirrored(seq: number, timeoutMs: number): Promise<void> {
    if ((this.mirror.tip()?.seq ?? 0) >= seq) return Promise.resolve()
    return new Promise((resolve) => {
      const waiter = { seq, done: finish }
      const timer = setTimeout(finish, timeoutMs)
      this.seqWaiters.add(waiter)
      const waiters = this.seqWaiters
      function finish(): void {
        clearTimeout(timer)
        waiters.delete(waiter)
        resolve()
      }
    })
  }

  private set(next: Partial<SyncState>): void {
    const merged = { ...this.state, ...next }
    if (merged.online) merged.offline_reason = null
    const changed = (Object.keys(merged) as (keyof SyncState)[]).some((k) => merged[k] !== this.state[k])
    this.state = merged
    if (changed) for (const l of [...this.listeners]) l({ ...merged })
  }

  /** Queues events for the mirror (in order); settles the caught-up state and write waiters. */
  private store(events: HubEvent[]): void {
    this.writes = this.writes.then(async () => {
      await this.mirror.insert(events)
      const tip = events[events.length - 1]!.seq
      if (!this.state.caught_up && tip >= this.remoteTip) this.set({ caught_up: true })
      for (const w of [...this.seqWaiters]) if (w.seq <= tip) w.done()
    })
  }

  private async run(signal: AbortSignal): Promise<void> {
    let delay = this.o.retryMinMs
    while (!signal.aborted) {
      try {
        await this.connect(signal)
        delay = this.o.retryMinMs
      } catch (err) {
        await this.writes.catch(() => undefined)
        if (signal.aborted) break
        const e = err instanceof RemoteCallError ? err : new RemoteCallError((err as Error).message, 'internal')
        if (e.detail.httpStatus === 400 && /since_event_id .* not found/.test(e.message)) {
          // Our cursor is unknown there: another hub answers at this URL now. Start over.
          await this.mirror.reset()
          this.set({ caught_up: false })
          for (const l of [...this.resetListeners]) l()
          continue
        }
        this.set({ online: false, offline_reason: e.message })
        const wait = e.detail.retryAfterMs ?? delay
        delay = Math.min(this.o.retryMaxMs, delay * 2)
        await sleep(Math.min(Math.max(wait, this.o.retryMinMs), 60_000), signal)
      }
    }
  }

  /** One session: find the cursor, note the server's tip, stream until failure. */
  private async connect(signal: AbortSignal): Promise<void> {
    await this.writes
    await this.onConnect()
    let tip = this.mirror.tip()
    if (!tip) {
      const first = await this.firstEvent(signal)
      if (!first) return // still empty: ask again
      this.store([first])
      await this.writes
      tip = this.mirror.tip()!
    }
    // Only the seq matters here: a preview keeps a huge newest body under upstream's response cap.
    const newest = await this.mcp.callTool<{ events?: unknown[] }>(
      'mempalace_event_list',
      { order: 'desc', limit: 1, preview: true },
      { signal }
    )
    this.remoteTip = newest.events?.length ? toHubEvent(newest.events[0]).seq : 0
    this.set({ reached: true, ...(tip.seq >= this.remoteTip ? { caught_up: true } : {}) })
    await runStream(
      this.endpoint,
      tip.id,
      { opened: () => this.set({ online: true }), events: (events) => this.store(events) },
      signal,
      this.o.idleTimeoutMs
    )
  }

  /**
   * The server's first event (the stream replays only after a cursor, so the first one is listed),
   * or null after long-polling an empty hub. Upstream caps a tool's answer at 50,000 characters:
   * a first event too big to list whole is stored as its 200-character preview (the one known
   * limit of the mirror; every later event arrives whole through the stream).
   */
  private async firstEvent(signal: AbortSignal): Promise<HubEvent | null> {
    const list = (args: Record<string, unknown>, timeoutMs?: number) =>
      this.mcp.callTool<{ events?: unknown[] }>('mempalace_event_list', { order: 'asc', limit: 1, ...args }, { signal, timeoutMs })
    const probe = await list({ preview: true })
    if (!probe.events?.length) {
      this.set({ reached: true, online: true, caught_up: true })
      try {
        await this.mcp.callTool(
          'mempalace_event_wait',
          { timeout_ms: this.o.emptyPollMs, limit: 1 },
          { signal, timeoutMs: this.o.emptyPollMs + 5_000 }
        )
      } catch (err) {
        if (!/response_too_large/.test((err as Error).message)) throw err
      }
      return null
    }
    try {
      const whole = await list({})
      if (whole.events?.length) return toHubEvent(whole.events[0])
    } catch (err) {
      if (!/response_too_large/.test((err as Error).message)) throw err
    }
    const { body_truncated: _t, body_length: _l, ...cut } = probe.events[0] as Record<string, unknown>
    return toHubEvent(cut)
  }

  /** Stops the loop and waits for pending mirror writes. */
  async close(): Promise<void> {
    this.closed = true
    this.abort?.abort()
    await this.loop?.catch(() => undefined)
    await this.writes.catch(() => undefined)
    for (const w of [...this.seqWaiters]) w.done()
    this.listeners.clear()
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
