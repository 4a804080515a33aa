/**
 * The one hub interface (spec/hub-logstream.md sections 3-6 and 8). Everything above it (the hub
 * service, handler groups, the CLI) talks to a `HubPort`; below it live two implementations: the
 * local logstream file (`local-hub.ts`) and, later, a MemPalace hub server over HTTP (`POST /mcp`
 * tools + SSE `/logstream/stream`). So the shapes here follow the wire: inputs use the MCP tools'
 * argument names (snake_case), outputs are the upstream envelopes. Every method is async and
 * fails with an `ApiError`: `not_found` (no hub, unknown id), `invalid_input` (a write rule,
 * a corrupt file), `conflict` (locked past the deadline), `forbidden` (read-only hub).
 */
import type {
  HubEvent,
  HubEventEnvelope,
  HubOverviewData,
  PresenceEntry,
  TaskCounts,
  TaskFold,
  TaskSummary,
  WaitingPatch
} from '../../shared/contract/hub-types'
import type { ArtifactKind, EventStatus } from '../../shared/contract/hub-vocabulary'

/** One value or several (several = OR). */
export type OneOrMany = string | readonly string[]

/** The filters of `list`/`wait`/`watch` plus Muster's body-text filter and author exclusions. */
export interface EventFilters {
  stream?: OneOrMany
  room?: OneOrMany
  topic?: OneOrMany
  type?: OneOrMany
  /** Matches the agent or the `'*'` broadcast; NULL `to_agent` never matches. */
  to_agent?: OneOrMany
  from_agent?: OneOrMany
  correlation_id?: OneOrMany
  status?: OneOrMany
  /** Authors to leave out; beats every positive match (upstream's newer hubs call it `writer`). */
  exclude_from_agent?: OneOrMany
  /** Case-insensitive (ASCII) substring of the body. */
  text?: string
  /** Inclusive lower bound on `created_at` (a filter, not a cursor). */
  since_created_at?: string
}

/** `list` (section 6): filters, exclusive cursors, limit 50 (max 500), order, preview. */
export interface ListQuery extends EventFilters {
  /** Exclusive cursor: events after this one (by seq). */
  since_event_id?: string
  /** Exclusive cursor: events before this one (by seq). */
  before_event_id?: string
  /** Exclusive numeric cursor (Muster): seq greater than this. */
  since_seq?: number
  /** Exclusive numeric cursor (Muster): seq less than this. */
  before_seq?: number
  limit?: number
  order?: 'asc' | 'desc'
  preview?: boolean
}

/** A page of events. */
export interface EventPage {
  events: HubEventEnvelope[]
  /** More matching events exist beyond this page in the same direction. */
  has_more: boolean
}

/** `wait`: list's query plus a timeout (default 60 s, max 300 s) and an abort signal. */
export interface WaitQuery extends ListQuery {
  timeout_ms?: number
  signal?: AbortSignal
}

/** What `wait` returns (upstream shape). */
export interface WaitResult {
  timed_out: boolean
  events: HubEventEnvelope[]
}

/** A point in a hub's order: its seq (the hub's rowid) and, when known, the event id there. */
export interface EventPosition {
  seq: number
  id: string | null
}

/** Options of `thread`. */
export interface ThreadQuery {
  correlation_id: string
  stuck_after_ms?: number
}

/** A thread: its events in seq order and the task state folded from them. */
export interface ThreadResult {
  fold: TaskFold
  events: HubEvent[]
}

/** Options of `tasks`. */
export interface TasksQuery {
  stream?: string
  /** Only tasks addressed to / requested by / claimed by this agent. */
  agent?: string
  limit?: number
  stuck_after_ms?: number
}

/** The newest task requests (at most 500) folded, plus the patches still waiting. */
export interface TasksResult {
  counts: TaskCounts
  tasks: TaskSummary[]
  /** More requests exist than were folded. */
  truncated: boolean
  patches_waiting: WaitingPatch[]
}

/** Options of `presence`. */
export interface PresenceQuery {
  agents?: readonly string[]
  stale_after_ms?: number
}

/** Options of `inbox`: an agent's inbox after its read position. */
export interface InboxQuery {
  agent: string
  /** The agent's read position (null = nothing read). */
  after: EventPosition | null
  limit: number
}

/** An inbox: the unread count (capped at 9,999) and the newest events, each marked unread or not. */
export interface InboxResult {
  unread: number
  events: (HubEventEnvelope & { unread: boolean })[]
}

/** Options of `overview`. */
export interface OverviewQuery {
  operator: string
  /** The operator's read position in this hub. */
  inbox_after: EventPosition | null
  stuck_after_ms?: number
  stale_after_ms?: number
}

/** `mempalace_event_append`'s arguments (section 4). */
export interface AppendInput {
  type: string
  stream: string
  room: string
  from_agent: string
  topic?: string | null
  to_agent?: string | null
  correlation_id?: string | null
  branch?: string | null
  base_commit?: string | null
  status?: EventStatus | string | null
  body?: string | null
  metadata?: Record<string, unknown> | null
  artifact_ids?: string[] | null
}

/** `mempalace_event_ack`'s arguments. */
export interface AckInput {
  event_id: string
  from_agent: string
  status?: EventStatus | string | null
  body?: string | null
  /** Default: the target's topic. */
  topic?: string | null
}

/** `mempalace_task_create`'s arguments (section 4, "Tasks"). */
export interface TaskCreateInput {
  project: string
  from_agent: string
  to_agent: string
  goal: string
  branch: string
  base_commit: string
  done: string
}

/** A created task: its `task.request` and the one-line handoff prompt. */
export interface TaskCreated {
  task: HubEvent
  handoff: string
}

/** A presence announcement: `type=status`, `room=status`, `to_agent='*'` (section 6). */
export interface AnnounceInput {
  from_agent: string
  /** Default `presence`. */
  stream?: string
  /** Default: "<agent> watching via Muster (...)". */
  body?: string
  /** The filters the agent watches (default `{to_agent: [agent]}`). */
  filters?: Record<string, unknown>
  cursor?: string | null
}

/** `mempalace_artifact_put`'s arguments (section 5). */
export interface ArtifactPutInput {
  kind: ArtifactKind | string
  content: string
  created_by: string
  metadata?: Record<string, unknown> | null
}

/** A stored artifact's record (content not echoed); `warnings` only for a doubtful patch. */
export interface ArtifactRecord {
  id: string
  kind: ArtifactKind
  sha256: string
  size_bytes: number
  created_by: string
  created_at: string
  origin_replica: string | null
  warnings?: string[]
}

/** A stored artifact with its exact content. */
export interface StoredArtifact extends Omit<ArtifactRecord, 'warnings'> {
  content: string
  metadata: Record<string, unknown>
  /** The stored metadata text when `metadata` cannot say it exactly (as on events). */
  metadata_json?: string
}

/** `mempalace_patch_submit`'s arguments: the patch text plus the `patch.ready` routing. */
export interface PatchSubmitInput {
  content: string
  from_agent: string
  stream: string
  /** Default `patches`. */
  room?: string
  topic?: string | null
  to_agent?: string | null
  correlation_id?: string | null
  branch?: string | null
  base_commit?: string | null
  body?: string | null
  /** Stored on both the artifact and the event. */
  metadata?: Record<string, unknown> | null
}

/** What `submitPatch` returns: the artifact (with its warnings) and the `patch.ready` event. */
export interface PatchSubmitted {
  artifact: ArtifactRecord
  event: HubEvent
}

/** Where a live tail starts: at the current tip, at the first event, or after an event id. */
export type TailStart = { from: 'tip' } | { from: 'start' } | { after_id: string }

/** Receives a live tail's events (full envelopes, in seq order) and health changes. */
export interface TailListener {
  /** A batch of new events (at most 500). */
  events(events: HubEvent[]): void
  /** The tail can read again, or cannot and why (local: missing/locked/corrupt; remote: unreachable, 503...). */
  health?(health: TailHealth): void
}

/** A live tail's health. While offline the tail keeps retrying and resumes with no gap. */
export interface TailHealth {
  online: boolean
  offline_reason: string | null
}

/** A running live tail. */
export interface HubSubscription {
  /** Looks for new events now (a hint: e.g. after this process wrote). */
  poke(): void
  close(): void
}

/** Which implementation a hub is. */
export type HubKind = 'local' | 'remote'

/** A hub's health and capabilities right now. */
export interface HubStatus {
  /** The hub exists (a local file; a remote server that answered). */
  exists: boolean
  /** It can be read now. */
  online: boolean
  /** Why it cannot (missing, corrupt, unreachable, unauthorised...), null when online. */
  offline_reason: string | null
  /** Writes are refused. */
  read_only: boolean
  /** Why (read-only file or folder, a `--read-only` server), null when writable. */
  read_only_reason: string | null
}

/** One MemPalace hub, local or remote. */
export interface HubPort {
  readonly kind: HubKind
  /** Stable key: the palace folder (local) or the server's base URL (remote); keys inbox cursors. */
  readonly location: string
  /** What to show the operator: the hub file, or the URL. */
  readonly label: string

  /** Health and capabilities (cheap; never throws). */
  status(): Promise<HubStatus>
  /** Creates an empty hub where there is none (local: palace folder, replica.json, v4 schema). */
  create(): Promise<void>

  /** Events matching a query (section 6). */
  list(query: ListQuery): Promise<EventPage>
  /** How many events match (visits every match: only on request). */
  count(filters: EventFilters): Promise<number>
  /** One event with its full body, or null. */
  get(id: string): Promise<HubEvent | null>
  /** The newest event's position, or null for an empty hub. */
  tip(): Promise<EventPosition | null>
  /** Long-polls for matching events (returns existing matches at once without a cursor). */
  wait(query: WaitQuery): Promise<WaitResult>
  /** Tails new events from a start point until closed. */
  subscribe(start: TailStart, listener: TailListener): HubSubscription

  /** One correlation id's events and folded task state. */
  thread(query: ThreadQuery): Promise<ThreadResult>
  /** Task requests folded into states, and patches waiting. */
  tasks(query: TasksQuery): Promise<TasksResult>
  /** The latest `status` announcement per agent, newest first. */
  presence(query: PresenceQuery): Promise<PresenceEntry[]>
  /** An agent's inbox: events to it or `'*'`, not its own. */
  inbox(query: InboxQuery): Promise<InboxResult>
  /** The agent's unread count after `after` (capped at 9,999). */
  unread(agent: string, after: EventPosition | null): Promise<number>
  /** The newest inbox event after `after` (previewed), or null. */
  latestInbox(agent: string, after: EventPosition | null): Promise<HubEventEnvelope | null>
  /** The operator's card: agents and their state, tasks, patches and approvals waiting, inbox. */
  overview(query: OverviewQuery): Promise<HubOverviewData>
  /** One artifact with its exact content, or null. */
  getArtifact(id: string): Promise<StoredArtifact | null>

  /** Appends one event (every rule of section 4; nothing is written on error). */
  append(input: AppendInput): Promise<HubEvent>
  /** Appends an `event.ack` of an existing event. */
  ack(input: AckInput): Promise<HubEvent>
  /** Appends a canonical `task.request`. */
  createTask(input: TaskCreateInput): Promise<TaskCreated>
  /** Appends a presence announcement. */
  announce(input: AnnounceInput): Promise<HubEvent>
  /** Stores an artifact's exact content. */
  putArtifact(input: ArtifactPutInput): Promise<ArtifactRecord>
  /** Stores a `kind=patch` artifact and appends `patch.ready` referencing it. */
  submitPatch(input: PatchSubmitInput): Promise<PatchSubmitted>

  /** Stops tails and closes connections. */
  close(): Promise<void>
}
