/**
 * The hub service: the one way into MemPalace hubs for handler groups and CLI commands alike.
 * It owns the hub registry, the open hubs (one `HubPort` per location: a palace folder's LocalHub, a
 * hub server's RemoteHub) and their live tails, and runs every operation through one validation path: which hub, what
 * the operator may do there, and (for tasks) that the base commit exists in the project's repo.
 * Results carry `{hub, palace}`: the registered name (else the location) and the location (the
 * palace folder; a remote hub's URL).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { HubInfo, MethodInput, MethodOutput, PushedEvent } from '../../shared/api'
import type { HubEvent } from '../../shared/contract/hub-types'
import { Status } from '../../shared/contract/hub-vocabulary'
import type { ProjectRegistry } from '../fleet'
import type { Db } from '../sqlite'
import { assertCommitExists } from './commit-check'
import { HubLive } from './hub-live'
import type {
  AckInput,
  AnnounceInput,
  AppendInput,
  ArtifactPutInput,
  EventPosition,
  HubPort,
  ListQuery,
  PatchSubmitInput,
  StoredArtifact,
  TaskCreateInput,
  TasksQuery,
  WaitQuery
} from './hub-port'
import { chooseHub, describeChoice, noHubHint, type HubChoice, type HubSelection } from './hub-choice'
import { HubRegistry, locationOf } from './hub-registry'
import type { PalaceEnv } from './locate'
import { OpenHubs } from './open/open-hubs'
import { notAFolder } from './store/read-only'
import { HUB_FILENAME } from './store/schema'
import type { SyncOptions } from './remote/remote-sync'
import { isHubUrl } from './remote/remote-url'
import { sanitizeListQuery } from './values/filter-values'
import { HubValidationError, patchWarnings, validateBaseCommit } from './values/validate'
import { watchHub, type WatchOutcome, type WatchRequest } from './watch/watch-run'
import { artifactIntegrity } from './values/integrity'
import { watchRegistry } from './watch/registry-watch'

/** A chosen hub: how it is shown (registered name, else its location), where it lives, the hub. */
export interface ChosenHub {
  name: string
  location: string
  hub: HubPort
  /** How it was chosen. */
  choice: HubChoice
}

/** `{hub, palace}` of every result. */
type Ref = { hub: string; palace: string }

/** What the service needs from its surroundings. */
export interface HubServiceOptions {
  /** Muster's state DB (registry, inbox cursors). */
  state: Db
  /** Registered projects (task base commits are checked in their repositories). */
  projects: ProjectRegistry
  /** The operator's agent id now (settings can change). */
  operator(): string
  /** Receives `hub.events` / `hub.inbox` pushes; without it no hub is tailed (CLI, tests). */
  emit?: (event: PushedEvent) => void
  /** Environment for MemPalace's palace resolution (default `process.env`). */
  env?: PalaceEnv
  /** How long reads and writes wait for a locked hub (default 10 s, MemPalace's). */
  lockTimeoutMs?: number
  /** Muster's home: remote hubs keep their token copy and mirror there (none: local hubs only). */
  home?: string
  /** Remote sync timing (tests). */
  remoteSync?: SyncOptions
}

/** Drops the selection (and `count`) from a list/wait input. */
function query<T extends HubSelection & { count?: boolean }>(input: T): Omit<T, 'hub' | 'palace' | 'count'> {
  const { hub: _h, palace: _p, count: _c, ...rest } = input
  return rest
}

/** Runs a validation, turning its rule violation into the API's `invalid_input`. */
function valid<T>(check: () => T): T {
  try {
    return check()
  } catch (err) {
    if (err instanceof HubValidationError) throw new ApiError(err.message, 'invalid_input')
    throw err
  }
}

/** The hub service of one Muster process. */
export class HubService {
  readonly registry: HubRegistry
  private readonly open: OpenHubs
  private readonly live: HubLive | null
  private readonly env: PalaceEnv
  private readonly stopRegistryWatch: () => void

  constructor(private readonly opts: HubServiceOptions) {
    this.registry = new HubRegistry(opts.state)
    this.open = new OpenHubs({ registry: this.registry, home: opts.home, lockTimeoutMs: opts.lockTimeoutMs, remoteSync: opts.remoteSync })
    this.env = opts.env ?? process.env
    this.live = opts.emit
      ? new HubLive({
          emit: opts.emit,
          operator: opts.operator,
          inboxAfter: (location) => this.inboxPosition(location, opts.operator())
        })
      : null
    this.resync()
    // a hub registered or removed by another process (the CLI) is tailed or dropped at once
    this.stopRegistryWatch = this.live
      ? watchRegistry(
          opts.state,
          () =>
            this.registry
              .list()
              .map((h) => `${h.name}\t${locationOf(h)}`)
              .join('\n'),
          () => this.resync()
        )
      : () => undefined
  }

  // ---- choosing hubs ----

  /** The hub a selection naming none stands for, and why (`chooseHub`: the same for every entry). */
  defaultHub(): HubChoice {
    return chooseHub(this.registry, {}, this.env)
  }

  /** The open hub at a location: a palace folder, or a registered server URL (shared by every call). */
  private hubAt(location: string): HubPort {
    return this.open.at(location)
  }

  /** Resolves a selection with `chooseHub`: `hub` name or URL (must be registered), else `palace`, else the default. */
  choose(sel: HubSelection): ChosenHub {
    const c = chooseHub(this.registry, sel, this.env)
    if (c.record) return { name: c.name, location: c.location, hub: this.open.of(c.record), choice: c }
    if (isHubUrl(c.location)) return { name: c.name, location: c.location, hub: this.hubAt(c.location), choice: c }
    const wrong = notAFolder(c.location)
    if (wrong) throw new ApiError(wrong, 'invalid_input')
    return { name: c.name, location: c.location, hub: this.hubAt(c.location), choice: c }
  }

  /**
   * `choose` for a read: a palace folder without its hub file is not_found with why it was
   * chosen and which hubs there are (a read never creates a hub).
   */
  chooseToRead(sel: HubSelection): ChosenHub {
    const h = this.choose(sel)
    if (h.hub.kind === 'local' && !existsSync(join(h.location, HUB_FILENAME)))
      throw new ApiError(`no hub at ${h.location} (${HUB_FILENAME} does not exist; ${noHubHint(this.registry, h.choice)})`, 'not_found')
    return h
  }

  /** Every registered hub, plus the default hub when it is not registered (then none is) and its hub file exists. */
  private async known(): Promise<{ name: string; location: string }[]> {
    const hubs = this.registry.list().map((h) => ({ name: h.name, location: locationOf(h) }))
    const def = this.defaultHub()
    if (!def.record && (await this.hubAt(def.location).status()).exists) hubs.push({ name: def.location, location: def.location })
    return hubs
  }

  private ref(h: ChosenHub): Ref {
    return { hub: h.name, palace: h.location }
  }

  /** The operator's read position in a hub. */
  private inboxPosition(location: string, agent: string): EventPosition | null {
    const c = this.registry.cursor(location, agent)
    return c ? { seq: c.last_seq, id: c.last_event_id } : null
  }

  /** Re-tails the known hubs (after the registry changed). */
  private resync(): void {
    if (!this.live) return
    const live = this.live
    this.known().then(
      (hubs) => live.sync(hubs.map((h) => ({ ...h, hub: this.hubAt(h.location) }))),
      () => undefined // a default palace that cannot be probed is simply not tailed
    )
  }

  // ---- the registry ----

  private async info(name: string, location: string, addedAt: string | null, registered: boolean): Promise<HubInfo> {
    const hub = this.hubAt(location)
    const s = await hub.status()
    return {
      name,
      palace: location,
      file: hub.label,
      added_at: addedAt,
      exists: s.exists,
      registered,
      kind: hub.kind,
      read_only: s.read_only,
      read_only_reason: s.read_only_reason,
      online: s.online,
      offline_reason: s.offline_reason
    }
  }

  /** Registered hubs and the default hub, with why it is the default (`source`, `reason`: "registered first"). */
  async listHubs(): Promise<MethodOutput<'hubs.list'>> {
    const hubs = await Promise.all(this.registry.list().map((h) => this.info(h.name, locationOf(h), h.added_at, true)))
    const def = this.defaultHub()
    const info = await this.info(def.record ? def.name : 'default', def.location, def.record?.added_at ?? null, !!def.record)
    return { hubs, default: { ...info, source: def.source, reason: describeChoice(def) } }
  }

  /**
   * Registers a palace (idempotent; `create` makes an empty hub where there is none) or a hub
   * server by URL with its token (checked against the server first; see remote-registration.ts).
   */
  async addHub(input: MethodInput<'hubs.add'>): Promise<MethodOutput<'hubs.add'>> {
    if (input.url) {
      // the remote client (and its schemas) loads only when a server is registered or forgotten
      const { registerRemoteHub } = await import('./open/remote-registration')
      const { hub, added } = await registerRemoteHub(
        { registry: this.registry, hubs: this.open, home: this.opts.home },
        { ...input, url: input.url }
      )
      if (added) this.resync()
      return { ...(await this.info(hub.name, locationOf(hub), hub.added_at, true)), added }
    }
    if (!input.palace) throw new ApiError('give a palace folder or a hub server URL', 'invalid_input')
    const chosen = this.choose({ palace: input.palace })
    const taken = input.name ? this.registry.find(input.name) : null
    if (taken && locationOf(taken) !== chosen.location) {
      throw new ApiError(`a hub named '${taken.name}' already exists (${locationOf(taken)}); pass another name`, 'conflict')
    }
    if (!(await chosen.hub.status()).exists) {
      if (!input.create)
        throw new ApiError(`no hub at ${chosen.location} (logstream.sqlite3 does not exist; pass create to make one)`, 'not_found')
      await chosen.hub.create()
    }
    await chosen.hub.tip() // a corrupt or unreadable file is refused before it is registered
    const { hub, added } = this.registry.add(chosen.location, input.name)
    if (added) this.resync()
    return { ...(await this.info(hub.name, locationOf(hub), hub.added_at, true)), added }
  }

  /**
   * Creates the hub file of a palace given by folder when there is none, as MemPalace's CLI opens a
   * palace (`_open_logstream` in cli/cmd_coord.py: `Logstream(...)` makes the folder and the schema);
   * a hub given by registered name or URL is left as it is.
   */
  async ensureHub(sel: HubSelection): Promise<void> {
    if (sel.hub || (sel.palace && isHubUrl(sel.palace))) return
    const chosen = this.choose(sel)
    if (!(await chosen.hub.status()).exists) await chosen.hub.create()
  }

  /** Unregisters a hub (its file is not touched). */
  async removeHub(name: string): Promise<{ removed: string }> {
    const rec = this.registry.remove(name)
    if (rec.kind === 'remote')
      await (
        await import('./open/remote-registration')
      ).forgetRemoteHub({ registry: this.registry, hubs: this.open, home: this.opts.home }, rec)
    else await this.open.drop(locationOf(rec))
    this.resync()
    return { removed: rec.name }
  }

  // ---- reads ----

  /** A page of events, with the total on request. */
  async list(input: HubSelection & ListQuery & { count?: boolean }): Promise<MethodOutput<'hub.list'>> {
    const q = valid(() => sanitizeListQuery(query(input)))
    const h = this.chooseToRead(input)
    const page = await h.hub.list(q)
    const total = input.count ? await h.hub.count(q) : undefined
    return {
      ...this.ref(h),
      events: page.events,
      count: page.events.length,
      has_more: page.has_more,
      ...(total !== undefined ? { total } : {})
    }
  }

  /** One event (full body). */
  async get(input: HubSelection & { id: string }): Promise<MethodOutput<'hub.get'>> {
    const h = this.chooseToRead(input)
    const event = await h.hub.get(input.id)
    if (!event) throw new ApiError(`event '${input.id}' not found`, 'not_found')
    return { ...this.ref(h), event }
  }

  /** The newest event's position (null for an empty hub). */
  async tip(sel: HubSelection): Promise<EventPosition | null> {
    return this.chooseToRead(sel).hub.tip()
  }

  /** An artifact's record, its sha256 and size checked against the stored content, patch warnings. */
  async artifact(input: HubSelection & { id: string; content?: boolean }): Promise<MethodOutput<'hub.artifact'>> {
    const h = this.chooseToRead(input)
    const art = await h.hub.getArtifact(input.id)
    if (!art) throw new ApiError(`artifact '${input.id}' not found`, 'not_found')
    const integrity = artifactIntegrity(art)
    return {
      ...this.ref(h),
      id: art.id,
      kind: art.kind,
      sha256: art.sha256,
      size_bytes: art.size_bytes,
      created_by: art.created_by,
      created_at: art.created_at,
      metadata: art.metadata,
      ...(art.metadata_json !== undefined ? { metadata_json: art.metadata_json } : {}),
      sha256_ok: integrity.sha256Ok,
      size_ok: integrity.sizeOk,
      warnings: patchWarnings(art.kind, art.content),
      ...(input.content ? { content: art.content } : {})
    }
  }

  /** An artifact as stored, exact content included (CLI `artifact get`, upstream `get_artifact`). */
  async storedArtifact(input: HubSelection & { id: string }): Promise<StoredArtifact> {
    const art = await this.chooseToRead(input).hub.getArtifact(input.id)
    if (!art) throw new ApiError(`artifact '${input.id}' not found`, 'not_found')
    return art
  }

  /** Long-polls for matching events. */
  async wait(input: HubSelection & WaitQuery): Promise<MethodOutput<'hub.wait'>> {
    const q = valid(() => sanitizeListQuery(query(input)))
    if (q.timeout_ms !== undefined && !(q.timeout_ms >= 0)) throw new ApiError('timeout_ms must be a non-negative number', 'invalid_input')
    const h = this.chooseToRead(input)
    return { ...this.ref(h), ...(await h.hub.wait(q)) }
  }

  /** `mempalace logstream watch`: validated, started and checkpointed as upstream does (see watch-run). */
  watch(sel: HubSelection, request: WatchRequest): Promise<WatchOutcome> {
    return watchHub(this.chooseToRead(sel).hub, { env: this.env, ...request })
  }

  /** One thread and its folded state; an unknown correlation id is not_found. */
  async thread(input: HubSelection & { correlation_id: string; stuck_after_ms?: number }): Promise<MethodOutput<'hub.thread'>> {
    const h = this.chooseToRead(input)
    const { fold, events } = await h.hub.thread({ correlation_id: input.correlation_id, stuck_after_ms: input.stuck_after_ms })
    if (events.length === 0) throw new ApiError(`no events with correlation_id '${input.correlation_id}'`, 'not_found')
    return { ...this.ref(h), ...fold, events }
  }

  /** Tasks by state, stuck ones, patches waiting. */
  async tasks(input: HubSelection & TasksQuery): Promise<MethodOutput<'hub.tasks'>> {
    const h = this.chooseToRead(input)
    const list = await h.hub.tasks(input)
    return {
      ...this.ref(h),
      counts: list.counts,
      tasks: list.tasks,
      truncated: list.truncated,
      open: list.tasks.filter((t) => t.state === Status.open),
      claimed: list.tasks.filter((t) => t.state === Status.claimed),
      stuck: list.tasks.filter((t) => t.stuck),
      patches_waiting: list.patches_waiting
    }
  }

  /** Who is home. */
  async presence(
    input: HubSelection & { agent?: string | readonly string[]; stale_after_ms?: number }
  ): Promise<MethodOutput<'hub.presence'>> {
    const h = this.chooseToRead(input)
    const agents = input.agent === undefined ? undefined : typeof input.agent === 'string' ? [input.agent] : input.agent
    return { ...this.ref(h), agents: await h.hub.presence({ agents, stale_after_ms: input.stale_after_ms }) }
  }

  /** The operator's inbox in a hub. */
  async inbox(input: HubSelection & { limit?: number }): Promise<MethodOutput<'hub.inbox'>> {
    const h = this.chooseToRead(input)
    const me = this.opts.operator()
    const cursor = this.registry.cursor(h.location, me)
    const inbox = await h.hub.inbox({ agent: me, after: this.inboxPosition(h.location, me), limit: input.limit ?? 50 })
    return { ...this.ref(h), cursor, ...inbox }
  }

  /** Moves the operator's inbox cursor forward to `event_id` (default: the newest inbox event). */
  async markRead(input: HubSelection & { event_id?: string }): Promise<MethodOutput<'hub.markRead'>> {
    const h = this.chooseToRead(input)
    const me = this.opts.operator()
    let target: EventPosition | null
    if (input.event_id) {
      const e = await h.hub.get(input.event_id)
      if (!e) throw new ApiError(`event '${input.event_id}' not found`, 'not_found')
      target = { seq: e.seq, id: e.id }
    } else {
      const latest = await h.hub.latestInbox(me, null)
      target = latest ? { seq: latest.seq, id: latest.id } : null
    }
    const cursor = target ? this.registry.setCursor(h.location, me, target.seq, target.id) : this.registry.cursor(h.location, me)
    const unread = await h.hub.unread(me, cursor ? { seq: cursor.last_seq, id: cursor.last_event_id } : null)
    this.live?.inboxRead(h.location, unread)
    return { ...this.ref(h), cursor, unread }
  }

  /** Per hub (one, or every known hub): agents, tasks, patches, approvals, inbox. */
  async overview(input: HubSelection & { stuck_after_ms?: number; stale_after_ms?: number }): Promise<MethodOutput<'hub.overview'>> {
    const me = this.opts.operator()
    const targets =
      input.hub || input.palace
        ? [this.choose(input)]
        : (await this.known()).map((k) => this.choose(k.name === k.location ? { palace: k.location } : { hub: k.name }))
    const hubs = await Promise.all(
      targets.map(async (h) => {
        try {
          const o = await h.hub.overview({
            operator: me,
            inbox_after: this.inboxPosition(h.location, me),
            stuck_after_ms: input.stuck_after_ms,
            stale_after_ms: input.stale_after_ms
          })
          return { ...this.ref(h), ok: true, error: null, ...o }
        } catch (err) {
          return {
            ...this.ref(h),
            ok: false,
            error: (err as Error).message,
            agents: [],
            tasks: null,
            stuck: [],
            patches_waiting: [],
            approvals_waiting: 0,
            inbox_unread: 0
          }
        }
      })
    )
    return { operator: me, hubs }
  }

  // ---- writes (as any agent: the handler group passes the operator, the CLI its --from-agent) ----

  /** Appends one event. */
  async append(input: HubSelection & AppendInput): Promise<Ref & { event: HubEvent }> {
    const h = this.choose(input)
    const event = await h.hub.append(query(input))
    this.live?.poke(h.location)
    return { ...this.ref(h), event }
  }

  /** Acknowledges an event with a new `event.ack`. */
  async ack(input: HubSelection & AckInput): Promise<Ref & { event: HubEvent }> {
    const h = this.choose(input)
    const event = await h.hub.ack(query(input))
    this.live?.poke(h.location)
    return { ...this.ref(h), event }
  }

  /**
   * Creates a task request. The base commit must be an object id, and when the task's project is
   * a registered project (or `repo_project` names one) it must be a commit of that repository.
   */
  async createTask(input: HubSelection & TaskCreateInput & { repo_project?: string }): Promise<MethodOutput<'hub.taskCreate'>> {
    const h = this.choose(input)
    let sha: string
    try {
      sha = validateBaseCommit(input.base_commit)
    } catch (err) {
      throw new ApiError((err as Error).message, 'invalid_input')
    }
    const wanted = input.project.trim().toLowerCase()
    const repo = input.repo_project
      ? this.opts.projects.get(input.repo_project)
      : this.opts.projects.list().find((p) => p.name.toLowerCase() === wanted)
    if (repo) await assertCommitExists(repo.path, sha, `project '${repo.name}'`)
    const { repo_project: _r, ...task } = query(input)
    const { task: event, handoff } = await h.hub.createTask(task)
    this.live?.poke(h.location)
    return { ...this.ref(h), task: event, handoff, verified_in: repo?.name ?? null }
  }

  /** Announces what an agent watches (presence). */
  async announce(input: HubSelection & AnnounceInput): Promise<Ref & { event: HubEvent }> {
    const h = this.choose(input)
    const event = await h.hub.announce(query(input))
    this.live?.poke(h.location)
    return { ...this.ref(h), event }
  }

  /** Stores an artifact's exact content. */
  async putArtifact(input: HubSelection & ArtifactPutInput) {
    const h = this.choose(input)
    return { ...this.ref(h), artifact: await h.hub.putArtifact(query(input)) }
  }

  /** Stores a patch and appends its `patch.ready`. */
  async submitPatch(input: HubSelection & PatchSubmitInput) {
    const h = this.choose(input)
    const done = await h.hub.submitPatch(query(input))
    this.live?.poke(h.location)
    return { ...this.ref(h), ...done }
  }

  /** Stops live tails and closes every hub. */
  async close(): Promise<void> {
    this.stopRegistryWatch()
    this.live?.close()
    await this.open.closeAll()
  }
}
