/**
 * Data types of the hub part of the contract (spec/hub-logstream.md): the event envelope in
 * upstream key order, task folds, presence, inbox and the per-hub overview.
 */
import { z } from 'zod'
import { TASK_STATES } from './hub-vocabulary'

/** The event envelope every hub method returns (keys in upstream order; preview adds the last two). */
export const HubEventSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  origin_replica: z.string().nullable(),
  origin_seq: z.number().int().nullable(),
  hlc: z.string().nullable(),
  type: z.string(),
  stream: z.string(),
  room: z.string(),
  topic: z.string().nullable(),
  from_agent: z.string(),
  to_agent: z.string().nullable(),
  correlation_id: z.string().nullable(),
  branch: z.string().nullable(),
  base_commit: z.string().nullable(),
  status: z.string().nullable(),
  artifact_ids: z.array(z.string()),
  body: z.string(),
  created_at: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  /**
   * Muster: the stored metadata text, present only when `metadata` cannot show it exactly (ints
   * past 2^53, floats written `1.0`, integer-like keys out of JS order). Show or print from it
   * (`shared/py-json`); the CLI's upstream envelopes print `metadata` from it and omit this key.
   */
  metadata_json: z.string().optional(),
  /** Preview only: the body was cut to 200 characters. */
  body_truncated: z.literal(true).optional(),
  /** Preview only: the full body's length in characters. */
  body_length: z.number().int().optional()
})
/** An envelope as returned (possibly previewed). */
export type HubEventEnvelope = z.infer<typeof HubEventSchema>
/** A stored event's envelope (never previewed). */
export type HubEvent = Omit<HubEventEnvelope, 'body_truncated' | 'body_length'>

/** Task states folded from a thread. */
export const TaskStateSchema = z.enum(TASK_STATES)
export type TaskStateName = z.infer<typeof TaskStateSchema>

/** One event of a thread as the thread view shows it. */
export const ThreadStepSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  type: z.string(),
  status: z.string().nullable(),
  from_agent: z.string(),
  to_agent: z.string().nullable(),
  created_at: z.string(),
  hlc: z.string().nullable(),
  ack_of: z.string().nullable(),
  voided: z.boolean(),
  artifact_ids: z.array(z.string()),
  body: z.string()
})

/** A task (one correlation id) folded into its state, without its steps. */
export const TaskSummarySchema = z.object({
  correlation_id: z.string(),
  state: TaskStateSchema,
  state_by: z.string().nullable(),
  state_at: z.string().nullable(),
  state_event_id: z.string().nullable(),
  request: z
    .object({
      id: z.string(),
      from_agent: z.string(),
      to_agent: z.string().nullable(),
      stream: z.string(),
      branch: z.string().nullable(),
      base_commit: z.string().nullable(),
      title: z.string(),
      created_at: z.string()
    })
    .nullable(),
  claimed_by: z.string().nullable(),
  claimed_at: z.string().nullable(),
  stuck: z.boolean(),
  stuck_for_ms: z.number().nullable(),
  event_count: z.number().int(),
  last_at: z.string().nullable()
})

/** Counts of tasks per state, plus stuck and total. */
export const TaskCountsSchema = z.object({
  open: z.number().int(),
  claimed: z.number().int(),
  ready: z.number().int(),
  applied: z.number().int(),
  failed: z.number().int(),
  blocked: z.number().int(),
  superseded: z.number().int(),
  stuck: z.number().int(),
  total: z.number().int()
})

/** One agent's latest `status` announcement. */
export const PresenceSchema = z.object({
  agent: z.string(),
  at: z.string(),
  age_ms: z.number(),
  stale: z.boolean(),
  filters: z.unknown(),
  cursor: z.string().nullable(),
  event: HubEventSchema
})

/** A `patch.ready` waiting for an applied/failed ack. */
export const WaitingPatchSchema = z.object({ event: HubEventSchema, waiting_ms: z.number() })

/** Three-way agent state: see core/hub/overview.ts for the rule. */
export const AgentStateSchema = z.enum(['working', 'idle', 'needs-me'])

/** One agent on a hub card. */
export const AgentSummarySchema = z.object({
  agent: z.string(),
  state: AgentStateSchema,
  reason: z.string(),
  presence: z.object({ at: z.string(), age_ms: z.number(), stale: z.boolean(), cursor: z.string().nullable() }).nullable(),
  claimed: z.number().int(),
  stuck: z.number().int(),
  last_seen_at: z.string().nullable(),
  /** What of the needs-you queue waits on this agent here: count, the oldest item's since and title (the chip's age). */
  needs: z.object({ count: z.number().int(), since: z.string(), title: z.string() }).nullable().optional()
})

/** A hub Muster knows: registered (name) or the MemPalace default. */
export const HubInfoSchema = z.object({
  name: z.string(),
  /** The palace folder (a remote hub: its URL). */
  palace: z.string(),
  /** What to show: the hub file (a remote hub: its URL). */
  file: z.string(),
  added_at: z.string().nullable(),
  exists: z.boolean(),
  registered: z.boolean(),
  /** A logstream file on this machine, or a MemPalace hub server. */
  kind: z.enum(['local', 'remote']),
  /** Writes are refused (read-only file, folder or mount; a `--read-only` server), with the reason. */
  read_only: z.boolean(),
  read_only_reason: z.string().nullable(),
  /** It can be read now; else why not (missing, corrupt, locked; a server unreachable, refusing the token, busy). */
  online: z.boolean(),
  offline_reason: z.string().nullable()
})
export type HubInfo = z.infer<typeof HubInfoSchema>

/** The overview of one hub (ok=false with `error` when it cannot be read). */
export const HubOverviewSchema = z.object({
  hub: z.string(),
  palace: z.string(),
  ok: z.boolean(),
  error: z.string().nullable(),
  agents: z.array(AgentSummarySchema),
  tasks: TaskCountsSchema.nullable(),
  stuck: z.array(TaskSummarySchema),
  patches_waiting: z.array(WaitingPatchSchema),
  approvals_waiting: z.number().int(),
  inbox_unread: z.number().int(),
  /** The needs-you queue's part for this hub: items, the oldest one's since, unread direct messages and broadcasts apart. */
  needs: z
    .object({
      count: z.number().int(),
      oldest_since: z.string().nullable(),
      unread_direct: z.number().int(),
      unread_broadcast: z.number().int()
    })
    .optional()
})

/** The operator's inbox cursor in a hub. */
export const InboxCursorSchema = z.object({ last_seq: z.number().int(), last_event_id: z.string().nullable(), updated_at: z.string() })

/** One event of a thread as the thread view shows it. */
export type ThreadStep = z.infer<typeof ThreadStepSchema>
/** A task without its steps (list rows). */
export type TaskSummary = z.infer<typeof TaskSummarySchema>
/** A thread folded into its task state, with its steps. */
export type TaskFold = TaskSummary & { steps: ThreadStep[] }
/** Counts per task state plus the stuck ones and the total. */
export type TaskCounts = z.infer<typeof TaskCountsSchema>
/** One agent's latest announcement ("who is home"). */
export type PresenceEntry = z.infer<typeof PresenceSchema>
/** A `patch.ready` nobody has applied, failed or superseded yet. */
export type WaitingPatch = z.infer<typeof WaitingPatchSchema>
/** The three-way state of an agent. */
export type AgentState = z.infer<typeof AgentStateSchema>
/** One agent on a hub card. */
export type AgentSummary = z.infer<typeof AgentSummarySchema>
/** A hub's overview for one operator (the card without its name and health). */
export type HubOverviewData = Omit<z.infer<typeof HubOverviewSchema>, 'hub' | 'palace' | 'ok' | 'error' | 'tasks'> & { tasks: TaskCounts }
/** The operator's inbox cursor in a hub. */
export type InboxCursor = z.infer<typeof InboxCursorSchema>
