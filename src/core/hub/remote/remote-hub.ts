/**
 * The remote implementation of the hub interface: a MemPalace hub server (`mempalace serve`,
 * spec/hub-logstream.md section 8), reached from Node only (main process, server, CLI).
 *
 * - Reads run on the hub's mirror (remote-mirror.ts), a local replica the live stream keeps in
 *   step (remote-sync.ts), through the very code that reads a local hub (LocalHub over the mirror
 *   file): list, counts, threads, tasks, presence, inbox and overview behave identically on both
 *   kinds, with every filter Muster has (several values, body text, exclusions, seq cursors).
 *   Until the mirror first catches up, a list or wait the MCP tools can express asks the server.
 * - Writes and artifacts are the upstream tools over `POST /mcp`; a write returns once the stream
 *   has brought its event into the mirror (at most a few seconds), so a read right after sees it.
 * - Capabilities come from one `tools/list` probe per connection, which every call of that
 *   connection awaits (never a flag a background probe flips under a call in flight): a
 *   `--read-only` server offers no write tool (writes are refused before any call, with the
 *   reason), and an older hub's list/wait without `writer` filter authors by `from_agent`. A call
 *   that sent `writer` and got the server's -32602 for it is asked again with `from_agent`: the
 *   fallback follows that answer and the argument this call sent, nothing shared.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubEvent, HubEventEnvelope } from '../../../shared/contract/hub-types'
import { announcement } from '../compose'
import type {
  AckInput,
  AnnounceInput,
  AppendInput,
  ArtifactPutInput,
  ArtifactRecord,
  EventFilters,
  EventPage,
  EventPosition,
  HubPort,
  HubStatus,
  HubSubscription,
  InboxQuery,
  InboxResult,
  ListQuery,
  OverviewQuery,
  PatchSubmitInput,
  PatchSubmitted,
  PresenceQuery,
  StoredArtifact,
  TailListener,
  TailStart,
  TaskCreated,
  TaskCreateInput,
  TasksQuery,
  TasksResult,
  ThreadQuery,
  ThreadResult,
  WaitQuery,
  WaitResult
} from '../hub-port'
import { LocalHub } from '../local/local-hub'
import { clampLimit } from '../store/reader'
import { definedArgs, listArgs, rejectsArgument, toEnvelope, type AuthorArg } from './remote-args'
import { McpClient, RemoteCallError, type RemoteEndpoint } from './remote-mcp'
import { HubMirror, toHubEvent } from './remote-mirror'
import { RemoteSync, type SyncOptions } from './remote-sync'
import { remoteKey } from './remote-url'
import { clampTimeout } from '../store/wait'

/** How long a read waits for the mirror to catch up before answering with what it has. */
const READY_WAIT_MS = 15_000
/** How long a write waits for its event to come back through the stream. */
const WRITE_ECHO_MS = 5_000
/** A status probe (no sync running) gives the server this long. */
const PROBE_MS = 5_000

/** What a remote hub needs. */
export interface RemoteHubOptions {
  url: string
  token: string | null
  /** Muster's home (the mirror lives in `hub-mirrors/<key>`). */
  home: string
  sync?: SyncOptions
  readyTimeoutMs?: number
  /** Each call's connect and read timeout (default 30 s; the hook's is short, so it answers within 5 s). */
  callTimeoutMs?: number
}

interface Capabilities {
  known: boolean
  readOnly: boolean
  author: AuthorArg
}

/** Before any probe answered: writes allowed, authors as newer hubs take them. */
const UNKNOWN_CAPS: Capabilities = { known: false, readOnly: false, author: 'writer' }

/** A hub served by a MemPalace hub server. */
export class RemoteHub implements HubPort {
  readonly kind = 'remote' as const
  readonly location: string
  readonly label: string
  private readonly mcp: McpClient
  private readonly mirror: HubMirror
  private readonly sync: RemoteSync
  private readonly local: LocalHub
  /** The current connection's probe (null before the first, or after one that failed). */
  private capsProbe: Promise<Capabilities> | null = null
  private capsSettled = true
  /** The last probe's answer, for synchronous display only (read-only state); calls await `capabilities()`. */
  private caps: Capabilities = UNKNOWN_CAPS
  private probe: { online: boolean; reason: string | null } | null = null
  private readonly readyMs: number
  private readonly probeMs: number

  constructor(o: RemoteHubOptions) {
    const endpoint: RemoteEndpoint = { url: o.url, token: o.token }
    this.location = o.url
    this.label = o.url
    this.mcp = new McpClient(endpoint, o.callTimeoutMs)
    this.probeMs = Math.min(PROBE_MS, o.callTimeoutMs ?? PROBE_MS)
    this.mirror = new HubMirror(o.home, remoteKey(o.url))
    this.local = new LocalHub(this.mirror.dir)
    this.sync = new RemoteSync(endpoint, this.mirror, this.mcp, () => this.refreshCapabilities(), o.sync)
    this.readyMs = o.readyTimeoutMs ?? READY_WAIT_MS
  }

  /** Starts a probe of the server's tools: read-only (no write tool offered) and how list/wait filter authors. */
  private probeCapabilities(signal?: AbortSignal): Promise<Capabilities> {
    const probe = this.mcp.listTools({ signal, timeoutMs: this.probeMs }).then((tools) => {
      const names = new Map(tools.map((t) => [t.name, t.arguments]))
      const list = names.get('mempalace_event_list')
      const caps: Capabilities = {
        known: true,
        readOnly: !names.has('mempalace_event_append'),
        author: list && !list.has('writer') ? 'from_agent' : 'writer'
      }
      if (this.capsProbe === probe) this.caps = caps
      return caps
    })
    this.capsProbe = probe
    this.capsSettled = false
    probe.then(
      () => this.capsProbe === probe && (this.capsSettled = true),
      () => {
        if (this.capsProbe !== probe) return
        this.capsProbe = null
        this.capsSettled = true
      }
    )
    return probe
  }

  /** A new connection (the live stream's, or a status probe): its one probe, or the one already under way. */
  private async refreshCapabilities(signal?: AbortSignal): Promise<void> {
    await (this.capsProbe && !this.capsSettled ? this.capsProbe : this.probeCapabilities(signal))
  }

  /** This connection's capabilities (probing once if nobody has); unknown when the probe failed. */
  private capabilities(): Promise<Capabilities> {
    return (this.capsProbe ?? this.probeCapabilities()).catch(() => UNKNOWN_CAPS)
  }

  private readOnlyReason(caps = this.caps): string | null {
    return caps.known && caps.readOnly ? `the hub server ${this.location} runs read-only (it offers no write tool)` : null
  }

  async status(): Promise<HubStatus> {
    let online: boolean
    let reason: string | null
    if (this.sync.running) {
      await this.sync.ready(this.probeMs)
      const s = this.sync.current()
      online = s.online
      reason = s.online ? null : (s.offline_reason ?? `connecting to ${this.location}…`)
    } else {
      try {
        await this.refreshCapabilities()
        this.probe = { online: true, reason: null }
      } catch (err) {
        this.probe = { online: false, reason: (err as Error).message }
      }
      online = this.probe.online
      reason = this.probe.reason
    }
    const readOnly = this.readOnlyReason()
    const exists = online || this.sync.current().reached || (this.mirror.exists() && this.mirror.tip() !== null)
    return { exists, online, offline_reason: reason, read_only: readOnly !== null, read_only_reason: readOnly }
  }

  async create(): Promise<void> {
    throw new ApiError(`a remote hub is created by its server (mempalace serve), not by Muster: ${this.location}`, 'invalid_input')
  }

  /** The mirror once it has caught up (or the server is out of reach and the mirror has something). */
  private async mirrored(): Promise<LocalHub> {
    this.mirror.open()
    await this.sync.ready(this.readyMs)
    const s = this.sync.current()
    if (!s.caught_up && this.mirror.tip() === null) {
      throw new ApiError(s.offline_reason ?? `hub server ${this.location} has not answered yet`, 'conflict')
    }
    return this.local
  }

  async list(q: ListQuery): Promise<EventPage> {
    this.sync.start()
    if (!this.sync.current().caught_up && listArgs(q, 'writer')) {
      try {
        return await this.listFromServer(q)
      } catch (err) {
        if (!(err instanceof RemoteCallError) || !err.detail.unreachable) throw err
      }
    }
    return (await this.mirrored()).list(q)
  }

  /**
   * One `mempalace_event_list` call (the query must be expressible: see `listArgs`). Authors are
   * filtered with `writer`; a hub that rejects it (-32602) is asked again with `from_agent`, and
   * remembered as an older hub.
   */
  async listFromServer(q: ListQuery): Promise<EventPage> {
    const limit = clampLimit(q.limit)
    const ask = (author: AuthorArg) => {
      const args = listArgs(q, author)
      if (!args) throw new ApiError('this query needs the hub mirror (several values, text or seq filters)', 'invalid_input')
      return this.mcp.callTool<{ events?: unknown[]; truncated?: boolean }>('mempalace_event_list', {
        ...args,
        limit: Math.min(limit + 1, 500)
      })
    }
    const out = await this.withAuthorFallback(q, ask)
    const events = (out.events ?? []).map(toEnvelope)
    return { events: events.slice(0, limit), has_more: events.length > limit || out.truncated === true }
  }

  /**
   * Runs a list/wait call with the author argument this connection's probe chose; when the call
   * sent `writer` and the server refused that very argument, asks again with `from_agent` (and
   * the connection's later calls send `from_agent` at once).
   */
  private async withAuthorFallback<T>(q: EventFilters, call: (author: AuthorArg) => Promise<T>): Promise<T> {
    const caps = await this.capabilities()
    const author = q.from_agent === undefined ? 'writer' : caps.author
    try {
      return await call(author)
    } catch (err) {
      if (q.from_agent === undefined || author !== 'writer' || !rejectsArgument(err, 'writer')) throw err
      const older: Capabilities = { ...caps, author: 'from_agent' }
      this.capsProbe = Promise.resolve(older)
      this.capsSettled = true
      this.caps = older
      return call('from_agent')
    }
  }

  async count(filters: EventFilters): Promise<number> {
    return (await this.mirrored()).count(filters)
  }

  async get(id: string): Promise<HubEvent | null> {
    return (await this.mirrored()).get(id)
  }

  async tip(): Promise<EventPosition | null> {
    return (await this.mirrored()).tip()
  }

  async wait(q: WaitQuery): Promise<WaitResult> {
    this.sync.start()
    const expressible = listArgs(q, 'writer') !== null && q.before_event_id === undefined
    if (this.sync.current().caught_up || !expressible) return (await this.mirrored()).wait(q)
    const timeout = clampTimeout(q.timeout_ms)
    const out = await this.withAuthorFallback(q, (author) => {
      const { order: _o, preview: _p, ...filters } = listArgs(q, author)!
      return this.mcp.callTool<{ timed_out?: boolean; events?: unknown[] }>(
        'mempalace_event_wait',
        { ...filters, timeout_ms: timeout, limit: clampLimit(q.limit) },
        { signal: q.signal, timeoutMs: timeout + 15_000 }
      )
    })
    return { timed_out: out.timed_out === true, events: (out.events ?? []).map(toEnvelope) }
  }

  subscribe(start: TailStart, listener: TailListener): HubSubscription {
    this.sync.start()
    this.mirror.open()
    let inner: HubSubscription | null = null
    let closed = false
    const begin = (from: TailStart): void => {
      if (!closed) inner = this.local.subscribe(from, { events: listener.events })
    }
    const report = (s: ReturnType<RemoteSync['current']>): void =>
      listener.health?.({ online: s.online, offline_reason: s.online ? null : (s.offline_reason ?? `connecting to ${this.location}…`) })
    const offState = this.sync.onChange(report)
    const offReset = this.sync.onReset(() => {
      inner?.close()
      begin({ from: 'start' })
    })
    report(this.sync.current())
    if ('from' in start && start.from === 'start') begin(start)
    else void this.sync.caughtUp().then(() => begin(start))
    return {
      poke: () => inner?.poke(),
      close: () => {
        closed = true
        inner?.close()
        offState()
        offReset()
      }
    }
  }

  async thread(q: ThreadQuery): Promise<ThreadResult> {
    return (await this.mirrored()).thread(q)
  }

  async tasks(q: TasksQuery): Promise<TasksResult> {
    return (await this.mirrored()).tasks(q)
  }

  async presence(q: PresenceQuery) {
    return (await this.mirrored()).presence(q)
  }

  async inbox(q: InboxQuery): Promise<InboxResult> {
    return (await this.mirrored()).inbox(q)
  }

  async unread(agent: string, after: EventPosition | null): Promise<number> {
    return (await this.mirrored()).unread(agent, after)
  }

  async latestInbox(agent: string, after: EventPosition | null): Promise<HubEventEnvelope | null> {
    return (await this.mirrored()).latestInbox(agent, after)
  }

  async overview(q: OverviewQuery) {
    return (await this.mirrored()).overview(q)
  }

  async getArtifact(id: string): Promise<StoredArtifact | null> {
    try {
      const out = await this.mcp.callTool<{ artifact?: StoredArtifact }>('mempalace_artifact_get', { artifact_id: id })
      const a = out.artifact
      return a ? { ...a, origin_replica: a.origin_replica ?? null, metadata: a.metadata ?? {} } : null
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found') return null
      throw err
    }
  }

  /** Calls a write tool: refused up front on a read-only server; an unknown `topic` explained. */
  private async write<T>(tool: string, args: Record<string, unknown>): Promise<T> {
    const refusal = this.readOnlyReason(await this.capabilities())
    if (refusal) throw new ApiError(`hub ${this.location} is read-only (${refusal}): writes are refused`, 'forbidden')
    try {
      return await this.mcp.callTool<T>(tool, definedArgs(args))
    } catch (err) {
      if (rejectsArgument(err, 'topic')) {
        throw new ApiError(`hub server ${this.location} runs an older MemPalace without topics: leave the topic empty`, 'invalid_input')
      }
      throw err
    }
  }

  /** A written event, once the stream has brought it into the mirror (or after a few seconds). */
  private async echoed(raw: unknown): Promise<HubEvent> {
    const event = toHubEvent(raw)
    this.sync.start()
    await this.sync.mirrored(event.seq, WRITE_ECHO_MS)
    return event
  }

  async append(e: AppendInput): Promise<HubEvent> {
    const out = await this.write<{ event: unknown }>('mempalace_event_append', { ...e })
    return this.echoed(out.event)
  }

  async ack(a: AckInput): Promise<HubEvent> {
    const out = await this.write<{ event: unknown }>('mempalace_event_ack', { ...a })
    return this.echoed(out.event)
  }

  async createTask(t: TaskCreateInput): Promise<TaskCreated> {
    const out = await this.write<{ task: unknown; handoff: string }>('mempalace_task_create', { ...t })
    return { task: await this.echoed(out.task), handoff: out.handoff }
  }

  announce(a: AnnounceInput): Promise<HubEvent> {
    return this.append(announcement(a))
  }

  async putArtifact(a: ArtifactPutInput): Promise<ArtifactRecord> {
    const out = await this.write<{ artifact: ArtifactRecord }>('mempalace_artifact_put', { ...a })
    return { ...out.artifact, origin_replica: out.artifact.origin_replica ?? null }
  }

  async submitPatch(p: PatchSubmitInput): Promise<PatchSubmitted> {
    const out = await this.write<{ artifact: ArtifactRecord; event: unknown }>('mempalace_patch_submit', { ...p })
    return { artifact: { ...out.artifact, origin_replica: out.artifact.origin_replica ?? null }, event: await this.echoed(out.event) }
  }

  async close(): Promise<void> {
    await this.sync.close()
    await this.local.close()
    this.mirror.close()
  }

  /** Closes and deletes the mirror (the hub was removed from Muster). */
  async destroy(): Promise<void> {
    await this.close()
    this.mirror.destroy()
  }
}
