/**
 * The local implementation of the hub interface: a MemPalace logstream file in a palace folder
 * (spec/hub-logstream.md sections 1-6), read and written through one `HubConnection`. The only
 * module above the SQL helpers (reader, writer, tasks, ...): everything else reaches a local hub
 * through this class. Reads and writes wait for locks without blocking the event loop.
 */
import { ApiError } from '../../shared/api-error'
import type { HubEvent } from '../../shared/contract/hub-types'
import { EventType, Room } from '../../shared/contract/hub-vocabulary'
import { announcement } from './compose'
import { HubConnection, hubError, type HubConnectionOptions } from './hub-connection'
import type {
  AckInput, AnnounceInput, AppendInput, ArtifactPutInput, ArtifactRecord, EventFilters, EventPage, EventPosition, Hub, HubStatus,
  HubSubscription, InboxQuery, InboxResult, ListQuery, OverviewQuery, PatchSubmitInput, PatchSubmitted, PresenceQuery, StoredArtifact,
  TailListener, TailStart, TaskCreated, TaskCreateInput, TasksQuery, TasksResult, ThreadQuery, ThreadResult, WaitQuery, WaitResult
} from './hub-port'
import { inboxOn, latestInboxOn, unreadOn } from './inbox'
import { LocalTail } from './local-tail'
import { overviewOn } from './overview'
import { presenceOn } from './presence'
import { countOn, eventOn, listOn, tipOn } from './reader'
import { writeRefusal } from './read-only'
import type { Hub as HubFile } from './schema'
import { listTasksOn, patchesWaitingOn } from './tasks'
import { foldThread, threadEventsOn } from './thread'
import { waitEvents } from './wait'
import { checkArtifact } from './artifacts'
import { ackEvent, appendEvent, checkAppend, checkTask, createTaskRequest, getArtifact, putArtifact, submitPatch, type AppendEventInput } from './writer'

/** The wire's snake_case append input as the writer's camelCase one. */
function toWriterInput(e: AppendInput): AppendEventInput {
  return {
    type: e.type, stream: e.stream, room: e.room, fromAgent: e.from_agent, topic: e.topic, toAgent: e.to_agent,
    correlationId: e.correlation_id, branch: e.branch, baseCommit: e.base_commit, status: e.status, body: e.body,
    metadata: e.metadata, artifactIds: e.artifact_ids
  }
}

/** A hub file on this machine. */
export class LocalHub implements Hub {
  readonly kind = 'local' as const
  /** The palace folder (absolute). */
  readonly location: string
  /** `<palace>/logstream.sqlite3`. */
  readonly label: string
  private readonly conn: HubConnection
  private readonly tails = new Set<LocalTail>()

  constructor(palace: string, opts: HubConnectionOptions = {}) {
    this.conn = new HubConnection(palace, opts)
    this.location = this.conn.palace
    this.label = this.conn.file
  }

  async status(): Promise<HubStatus> {
    const exists = this.conn.exists()
    let offline: string | null = null
    try {
      await this.conn.readAsync(() => undefined)
    } catch (err) {
      offline = (err as Error).message
    }
    const readOnly = writeRefusal(this.conn.palace, this.conn.file)
    return { exists, online: offline === null, offline_reason: offline, read_only: readOnly !== null, read_only_reason: readOnly }
  }

  /** Creates the hub file (and its folder); a place it cannot be written is refused, naming why. */
  async create(): Promise<void> {
    const refusal = writeRefusal(this.conn.palace, this.conn.file)
    if (refusal) throw new ApiError(`cannot create hub ${this.conn.file}: ${refusal}`, 'forbidden')
    await this.write(() => undefined, () => undefined)
  }

  list(q: ListQuery): Promise<EventPage> {
    return this.conn.readAsync((db, shape) => {
      const page = listOn(db, shape, q)
      return { events: page.events, has_more: page.has_more }
    })
  }

  count(filters: EventFilters): Promise<number> {
    return this.conn.readAsync((db, shape) => countOn(db, shape, filters))
  }

  get(id: string): Promise<HubEvent | null> {
    return this.conn.readAsync((db, shape) => eventOn(db, shape, id))
  }

  tip(): Promise<EventPosition | null> {
    return this.conn.readAsync((db, shape) => tipOn(db, shape))
  }

  wait(q: WaitQuery): Promise<WaitResult> {
    return waitEvents(this.conn, q)
  }

  subscribe(start: TailStart, listener: TailListener): HubSubscription {
    const tail = new LocalTail(this.conn.palace, start, listener)
    this.tails.add(tail)
    const close = tail.close.bind(tail)
    tail.close = () => {
      this.tails.delete(tail)
      close()
    }
    return tail
  }

  thread(q: ThreadQuery): Promise<ThreadResult> {
    return this.conn.readAsync((db, shape) => {
      const events = threadEventsOn(db, shape, q.correlation_id)
      return { fold: foldThread(q.correlation_id, events, { stuckAfterMs: q.stuck_after_ms }), events }
    })
  }

  tasks(q: TasksQuery): Promise<TasksResult> {
    return this.conn.readAsync((db, shape) => ({
      ...listTasksOn(db, shape, { stream: q.stream, agent: q.agent, limit: q.limit, stuckAfterMs: q.stuck_after_ms }),
      patches_waiting: patchesWaitingOn(db, shape)
    }))
  }

  presence(q: PresenceQuery) {
    return this.conn.readAsync((db, shape) => presenceOn(db, shape, { agents: q.agents, staleAfterMs: q.stale_after_ms }))
  }

  inbox(q: InboxQuery): Promise<InboxResult> {
    return this.conn.readAsync((db, shape) => inboxOn(db, shape, q.agent, q.after?.seq ?? 0, q.limit))
  }

  unread(agent: string, after: EventPosition | null): Promise<number> {
    return this.conn.readAsync((db, shape) => unreadOn(db, shape, agent, after?.seq ?? 0))
  }

  latestInbox(agent: string, after: EventPosition | null) {
    return this.conn.readAsync((db, shape) => latestInboxOn(db, shape, agent, after?.seq ?? 0))
  }

  overview(q: OverviewQuery) {
    return this.conn.readAsync((db, shape) =>
      overviewOn(db, shape, { operator: q.operator, inboxAfterSeq: q.inbox_after?.seq ?? 0, stuckAfterMs: q.stuck_after_ms, staleAfterMs: q.stale_after_ms })
    )
  }

  getArtifact(id: string): Promise<StoredArtifact | null> {
    return this.conn.readAsync((db) => getArtifact(db, id))
  }

  append(e: AppendInput): Promise<HubEvent> {
    const input = toWriterInput(e)
    return this.write(() => checkAppend(input), (w) => appendEvent(w.db, w.replicaId, input))
  }

  ack(a: AckInput): Promise<HubEvent> {
    // The ack's own fields first; its target must be in an existing hub, so a missing one is not created.
    const check = (): void => {
      checkAppend({ type: EventType.ack, stream: '-', room: '-', fromAgent: a.from_agent, status: a.status, body: a.body ?? '', topic: a.topic })
      if (!this.conn.exists()) throw new ApiError(`no hub at ${this.location} (logstream.sqlite3 does not exist)`, 'not_found')
    }
    return this.write(check, (w) => ackEvent(w.db, w.replicaId, { eventId: a.event_id, fromAgent: a.from_agent, status: a.status, body: a.body, topic: a.topic }))
  }

  createTask(t: TaskCreateInput): Promise<TaskCreated> {
    const input = { project: t.project, fromAgent: t.from_agent, toAgent: t.to_agent, goal: t.goal, branch: t.branch, baseCommit: t.base_commit, done: t.done }
    return this.write(() => checkTask(input), (w) => createTaskRequest(w.db, w.replicaId, input))
  }

  announce(a: AnnounceInput): Promise<HubEvent> {
    return this.append(announcement(a))
  }

  putArtifact(a: ArtifactPutInput): Promise<ArtifactRecord> {
    const input = { kind: a.kind, content: a.content, createdBy: a.created_by, metadata: a.metadata }
    return this.write(() => checkArtifact(input), (w) => putArtifact(w.db, w.replicaId, input))
  }

  submitPatch(p: PatchSubmitInput): Promise<PatchSubmitted> {
    const patch = {
      content: p.content, fromAgent: p.from_agent, room: p.room ?? undefined, stream: p.stream, topic: p.topic, toAgent: p.to_agent,
      correlationId: p.correlation_id, branch: p.branch, baseCommit: p.base_commit, body: p.body, metadata: p.metadata
    }
    const check = (): void => {
      checkArtifact({ kind: 'patch', content: patch.content, createdBy: patch.fromAgent, metadata: patch.metadata })
      checkAppend({ ...patch, type: EventType.patchReady, room: patch.room ?? Room.patches })
    }
    // One transaction (the artifact and its event commit together), so a locked attempt wrote nothing.
    return this.write(check, (w) => w.db.transaction(() => submitPatch(w.db, w.replicaId, patch)).immediate())
  }

  /**
   * A write that changes nothing when refused: the input's own rules first, then a read-only hub
   * (file, folder or mount), both before the hub is opened, created or touched in any way.
   */
  private async write<T>(check: () => void, fn: (hub: HubFile) => T): Promise<T> {
    try {
      check()
    } catch (err) {
      throw hubError(err, this.conn.file)
    }
    const refusal = writeRefusal(this.conn.palace, this.conn.file)
    if (refusal) throw new ApiError(`hub ${this.conn.file} is read-only (${refusal}): writes are refused`, 'forbidden')
    return this.conn.write(fn)
  }

  async close(): Promise<void> {
    for (const tail of [...this.tails]) tail.close()
    this.conn.close()
  }
}
