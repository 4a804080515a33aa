/**
 * Task and patch lists for the operator (spec sections 4-5): the most recent task requests folded
 * into their states with open/claimed/stuck counts, and `patch.ready` events still waiting for an
 * applied/failed (or superseded) ack.
 */
import type { HubEvent, TaskCounts, TaskSummary, WaitingPatch } from '../../../shared/contract/hub-types'
import { EventType, PATCH_CLOSING_STATUSES } from '../../../shared/contract/hub-vocabulary'
import type { Db } from '../../sqlite'
import { queryPage, type EventFilters } from '../store/event-query'
import type { HubShape, ReadStep } from '../store/hub-connection'
import { previewEvent, toEvents } from '../store/reader'
import { ackOf, foldThread } from './thread'
import type { EventRow } from '../store/writer'

export type { TaskCounts, TaskSummary, WaitingPatch }

/** Tasks folded per call at most (the newest requests). */
export const MAX_TASKS = 500

/** What `listTasksIn` returns. */
export interface TaskList {
  counts: TaskCounts
  tasks: TaskSummary[]
  /** True when more requests exist than were folded. */
  truncated: boolean
}

/** Options of `listTasksIn`. */
export interface TaskListOptions {
  stream?: string
  /** Only tasks addressed to / requested by this agent. */
  agent?: string
  limit?: number
  now?: number
  stuckAfterMs?: number
  /** Where threads are read (default: from the file each time). */
  threads?: ThreadSource
}

function rowsOf(db: Db, shape: HubShape, filters: EventFilters, limit: number, order: 'asc' | 'desc'): HubEvent[] {
  const { rows } = queryPage<EventRow>(db, shape, { filters, after: null, before: null, order, limit })
  return toEvents(db, shape, rows)
}

/** Correlation ids per read of their threads: each read stays a few milliseconds on a busy hub. */
const THREADS_PER_READ = 50

/** Events of several correlation ids, grouped, in seq order. */
export function threadsOn(db: Db, shape: HubShape, correlationIds: string[]): Map<string, HubEvent[]> {
  const out = new Map<string, HubEvent[]>()
  for (let i = 0; i < correlationIds.length; i += 200)
    addThreads(out, rowsOf(db, shape, { correlation_id: correlationIds.slice(i, i + 200) }, 100_000, 'asc'))
  return out
}

function addThreads(out: Map<string, HubEvent[]>, events: HubEvent[]): void {
  for (const e of events) {
    const list = out.get(e.correlation_id!)
    if (list) list.push(e)
    else out.set(e.correlation_id!, [e])
  }
}

/** Reads the threads of some correlation ids (grouped, each in seq order): `readThreads`, or a `ThreadCache`'s. */
export type ThreadSource = (read: ReadStep, correlationIds: string[]) => Promise<Map<string, HubEvent[]>>

/** `threadsOn` in reads of THREADS_PER_READ ids each, so the event loop gets turns between them. */
export async function readThreads(read: ReadStep, correlationIds: string[]): Promise<Map<string, HubEvent[]>> {
  const out = new Map<string, HubEvent[]>()
  for (let i = 0; i < correlationIds.length; i += THREADS_PER_READ) {
    const ids = correlationIds.slice(i, i + THREADS_PER_READ)
    addThreads(out, await read((db, shape) => rowsOf(db, shape, { correlation_id: ids }, 100_000, 'asc')))
  }
  return out
}

/**
 * Folds the newest task requests (at most 500) into their states: the requests in one read, their
 * threads in reads of a few dozen, each a snapshot of its own (a row landing in between shows in a
 * thread a little early or in the next list; never half a row).
 */
export async function listTasksIn(read: ReadStep, o: TaskListOptions = {}): Promise<TaskList> {
  const limit = Math.min(Math.max(1, o.limit ?? MAX_TASKS), MAX_TASKS)
  const requests = await read((db, shape) =>
    rowsOf(db, shape, { type: EventType.taskRequest, ...(o.stream ? { stream: o.stream } : {}) }, limit + 1, 'desc')
  )
  const truncated = requests.length > limit
  const ids = [...new Set(requests.slice(0, limit).map((r) => r.correlation_id ?? r.id))]
  const threads = await (o.threads ?? readThreads)(
    read,
    ids.filter((id) => requests.some((r) => r.correlation_id === id))
  )
  const counts: TaskCounts = { open: 0, claimed: 0, ready: 0, applied: 0, failed: 0, blocked: 0, superseded: 0, stuck: 0, total: 0 }
  const tasks: TaskSummary[] = []
  for (const id of ids) {
    const events = threads.get(id) ?? requests.filter((r) => r.id === id)
    const { steps: _steps, ...fold } = foldThread(id, events, { now: o.now, stuckAfterMs: o.stuckAfterMs })
    if (o.agent && fold.request?.to_agent !== o.agent && fold.request?.from_agent !== o.agent && fold.claimed_by !== o.agent) continue
    tasks.push(fold)
    counts[fold.state]++
    counts.total++
    if (fold.stuck) counts.stuck++
  }
  return { counts, tasks, truncated }
}

/** The newest `patch.ready` events (at most 500 examined) without an applied/failed/superseded ack; threads read as in `listTasksIn`. */
export async function patchesWaitingIn(
  read: ReadStep,
  o: { now?: number; limit?: number; threads?: ThreadSource } = {}
): Promise<WaitingPatch[]> {
  const patches = await read((db, shape) =>
    rowsOf(db, shape, { type: EventType.patchReady }, Math.min(o.limit ?? MAX_TASKS, MAX_TASKS), 'desc')
  )
  if (patches.length === 0) return []
  const threads = await (o.threads ?? readThreads)(read, [...new Set(patches.map((p) => p.correlation_id ?? p.id))])
  const closed = new Set<string>()
  for (const events of threads.values()) {
    for (const e of events) {
      const target = ackOf(e)
      if (target && e.status && (PATCH_CLOSING_STATUSES as readonly string[]).includes(e.status)) closed.add(target)
    }
  }
  const now = o.now ?? Date.now()
  return patches
    .filter((p) => !closed.has(p.id))
    .map((p) => ({ event: previewEvent(p), waiting_ms: Math.max(0, now - Date.parse(p.created_at)) }))
}
