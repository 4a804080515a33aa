/**
 * The local implementation of the hub interface: a MemPalace logstream file in a palace folder
 * (spec/hub-logstream.md sections 1-6), read and written through one `HubConnection`. The only
 * module above the SQL helpers (reader, writer, tasks, ...): everything else reaches a local hub
 * through this class. Reads and writes wait for locks without blocking the event loop. Appends,
 * plain reads and the live tail are in `LocalHubBase`; this adds the folds, waits and composed writes.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { EventType, Room } from '../../../shared/contract/hub-vocabulary'
import { checkArtifact } from '../store/artifacts'
import { announcement } from '../compose'
import type {
  AckInput,
  AnnounceInput,
  EventPosition,
  HubPort,
  InboxQuery,
  InboxResult,
  OverviewQuery,
  PatchSubmitInput,
  PatchSubmitted,
  PresenceQuery,
  TaskCreated,
  TaskCreateInput,
  TasksQuery,
  TasksResult,
  ThreadQuery,
  ThreadResult,
  WaitQuery,
  WaitResult
} from '../hub-port'
import { inboxOn, latestInboxOn, unreadOn } from '../folds/inbox'
import { LocalHubBase } from './local-hub-base'
import { overviewIn } from '../folds/overview'
import { presenceOn } from '../folds/presence'
import { listTasksIn, patchesWaitingIn } from '../folds/tasks'
import { ThreadCache } from '../folds/thread-cache'
import { foldThread, threadEventsOn } from '../folds/thread'
import { waitEvents } from '../store/wait'
import type { ReadStep } from '../store/hub-connection'
import { ackEvent, checkAppend, checkTask, createTaskRequest, submitPatch } from '../store/writer'

/** A hub file on this machine. */
export class LocalHub extends LocalHubBase implements HubPort {
  /** Task and patch threads between folds (the overview, the task list and the needs queue fold the same ones). */
  private readonly threadCache = new ThreadCache()

  wait(q: WaitQuery): Promise<WaitResult> {
    return waitEvents(this.conn, q)
  }

  thread(q: ThreadQuery): Promise<ThreadResult> {
    return this.conn.readAsync((db, shape) => {
      const events = threadEventsOn(db, shape, q.correlation_id)
      return { fold: foldThread(q.correlation_id, events, { stuckAfterMs: q.stuck_after_ms }), events }
    })
  }

  async tasks(q: TasksQuery): Promise<TasksResult> {
    const read: ReadStep = (fn) => this.conn.readAsync(fn)
    const threads = this.threadCache.read
    const list = await listTasksIn(read, { stream: q.stream, agent: q.agent, limit: q.limit, stuckAfterMs: q.stuck_after_ms, threads })
    return { ...list, patches_waiting: await patchesWaitingIn(read, { threads }) }
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
    return overviewIn((fn) => this.conn.readAsync(fn), {
      operator: q.operator,
      inboxAfterSeq: q.inbox_after?.seq ?? 0,
      stuckAfterMs: q.stuck_after_ms,
      staleAfterMs: q.stale_after_ms,
      threads: this.threadCache.read
    })
  }

  ack(a: AckInput): Promise<HubEvent> {
    // The ack's own fields first; its target must be in an existing hub, so a missing one is not created.
    const check = (): void => {
      checkAppend({
        type: EventType.ack,
        stream: '-',
        room: '-',
        from_agent: a.from_agent,
        status: a.status,
        body: a.body ?? '',
        topic: a.topic
      })
      if (!this.conn.exists()) throw new ApiError(`no hub at ${this.location} (logstream.sqlite3 does not exist)`, 'not_found')
    }
    return this.write(check, (w) => ackEvent(w.db, w.replicaId, a))
  }

  createTask(t: TaskCreateInput): Promise<TaskCreated> {
    return this.write(
      () => checkTask(t),
      (w) => createTaskRequest(w.db, w.replicaId, t)
    )
  }

  announce(a: AnnounceInput): Promise<HubEvent> {
    return this.append(announcement(a))
  }

  submitPatch(p: PatchSubmitInput): Promise<PatchSubmitted> {
    const check = (): void => {
      checkArtifact({ kind: 'patch', content: p.content, created_by: p.from_agent, metadata: p.metadata })
      checkAppend({ ...p, type: EventType.patchReady, room: p.room ?? Room.patches })
    }
    // One transaction (the artifact and its event commit together), so a locked attempt wrote nothing.
    return this.write(check, (w) => w.db.transaction(() => submitPatch(w.db, w.replicaId, p)).immediate())
  }
}
