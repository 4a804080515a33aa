/**
 * The hub part of the contract: the MemPalace logstream (spec/hub-logstream.md). Every hub method
 * takes an optional `hub` (a registered name) or `palace` (a folder); with neither, the palace is
 * resolved like MemPalace (env `MEMPALACE_PALACE_PATH`, `~/.mempalace/config.json`, default).
 * Writes always use the operator id from settings as `from_agent`.
 */
import { z } from 'zod'
import {
  HubEventSchema,
  HubInfoSchema,
  HubOverviewSchema,
  InboxCursorSchema,
  PresenceSchema,
  TaskCountsSchema,
  TaskSummarySchema,
  ThreadStepSchema,
  WaitingPatchSchema
} from './hub-types'

export * from './hub-types'
export * from './hub-vocabulary'

const Text = z.string().max(4096)
/** One value or several (several = OR). */
const OneOrMany = z.union([Text, z.array(Text).max(64)])
const Ms = z
  .number()
  .int()
  .min(0)
  .max(366 * 24 * 3600 * 1000)

/** Which hub: a registered name or a palace folder (neither = MemPalace's default resolution). */
export const HubSelector = z.object({
  hub: z.string().trim().min(1).max(64).optional(),
  palace: z.string().trim().min(1).max(4096).optional()
})

/** The filters of `hub.list` / `hub.wait` (section 6) plus a body-text filter and author exclusion. */
export const HubFilters = z.object({
  stream: OneOrMany.optional(),
  room: OneOrMany.optional(),
  topic: OneOrMany.optional(),
  type: OneOrMany.optional(),
  to_agent: OneOrMany.optional(),
  from_agent: OneOrMany.optional(),
  correlation_id: OneOrMany.optional(),
  status: OneOrMany.optional(),
  exclude_from_agent: OneOrMany.optional(),
  text: Text.optional(),
  since_created_at: Text.optional(),
  since_event_id: Text.optional(),
  before_event_id: Text.optional(),
  /** Exclusive numeric cursors on `seq` (rowid), for jumping anywhere in a long stream. */
  since_seq: z.number().int().min(0).optional(),
  before_seq: z.number().int().min(1).optional(),
  limit: z.number().int().optional(),
  order: z.enum(['asc', 'desc']).optional(),
  preview: z.boolean().optional()
})

/** The hub an answer came from: its registered name and palace folder. */
export const HubRef = { hub: z.string(), palace: z.string() }
/** The fields of a stored artifact's record, as MemPalace's artifact tools return them. */
export const ArtifactRecordFields = {
  id: z.string(),
  kind: z.string(),
  sha256: z.string(),
  size_bytes: z.number().int(),
  created_by: z.string(),
  created_at: z.string()
}

/** Methods on hubs: registry, list/wait, threads, tasks, presence, writes as the operator, inbox, overview. */
export const hubMethods = {
  'hubs.list': {
    input: z.object({}).strict(),
    output: z.object({ hubs: z.array(HubInfoSchema), default: HubInfoSchema.extend({ source: z.string(), reason: z.string() }) })
  },
  /**
   * Registers a palace folder (local) or a MemPalace hub server's URL (remote). Idempotent: the
   * same palace or URL again returns the existing record (a remote one takes a new token).
   *
   * A server's token travels as its text only, never as a file path: a caller of the dashboard
   * API must not be able to make Muster read a file of its choosing and send it as a bearer token
   * to a URL of its choosing. `muster hubs add --url --token-file F` reads F in the operator's
   * shell (core/hub/remote/token-file) and passes the text here; Settings pastes it.
   */
  'hubs.add': {
    input: z
      .object({
        palace: z.string().trim().min(1).max(4096).optional(),
        url: z.string().trim().min(1).max(2048).optional(),
        name: z.string().trim().min(1).max(64).optional(),
        create: z.boolean().optional(),
        /** Remote: the bearer token itself; copied into Muster's home (mode 0600), never returned. */
        token: z.string().min(1).max(4096).optional()
      })
      .strict()
      .superRefine((v, ctx) => {
        const issue = (message: string): void => ctx.addIssue({ code: 'custom', message })
        if (!v.palace === !v.url) issue('give either palace (a local hub) or url (a hub server)')
        if (v.palace && v.token) issue('token is for a hub server (url)')
        if (v.url && v.create) issue('create is for a local palace: a hub server creates its own hub')
      }),
    output: HubInfoSchema.extend({ added: z.boolean() })
  },
  'hubs.remove': { input: z.object({ name: z.string().trim().min(1).max(64) }).strict(), output: z.object({ removed: z.string() }) },
  'hub.list': {
    input: HubSelector.extend(HubFilters.shape).extend({ count: z.boolean().optional() }).strict(),
    output: z.object({
      ...HubRef,
      events: z.array(HubEventSchema),
      count: z.number().int(),
      has_more: z.boolean(),
      total: z.number().int().optional()
    })
  },
  'hub.get': {
    input: HubSelector.extend({ id: Text }).strict(),
    output: z.object({ ...HubRef, event: HubEventSchema })
  },
  /** An artifact's record: stored sha256 checked against the content, size, patch warnings. */
  'hub.artifact': {
    input: HubSelector.extend({ id: Text, content: z.boolean().optional() }).strict(),
    output: z.object({
      ...HubRef,
      ...ArtifactRecordFields,
      metadata: z.record(z.string(), z.unknown()),
      /** The stored metadata text when `metadata` cannot say it exactly (as on events). */
      metadata_json: z.string().optional(),
      /** The sha256 recomputed from the stored bytes equals the stored one. */
      sha256_ok: z.boolean(),
      /** The stored size equals the UTF-8 byte length of the content. */
      size_ok: z.boolean(),
      warnings: z.array(z.string()),
      content: z.string().optional()
    })
  },
  'hub.wait': {
    input: HubSelector.extend(HubFilters.shape).extend({ timeout_ms: z.number().int().optional() }).strict(),
    output: z.object({ ...HubRef, timed_out: z.boolean(), events: z.array(HubEventSchema) })
  },
  'hub.thread': {
    input: HubSelector.extend({ correlation_id: Text, stuck_after_ms: Ms.optional() }).strict(),
    output: TaskSummarySchema.extend({ ...HubRef, steps: z.array(ThreadStepSchema), events: z.array(HubEventSchema) })
  },
  'hub.tasks': {
    input: HubSelector.extend({
      stream: Text.optional(),
      agent: Text.optional(),
      limit: z.number().int().min(1).max(500).optional(),
      stuck_after_ms: Ms.optional()
    }).strict(),
    output: z.object({
      ...HubRef,
      counts: TaskCountsSchema,
      tasks: z.array(TaskSummarySchema),
      open: z.array(TaskSummarySchema),
      claimed: z.array(TaskSummarySchema),
      stuck: z.array(TaskSummarySchema),
      patches_waiting: z.array(WaitingPatchSchema),
      truncated: z.boolean()
    })
  },
  'hub.presence': {
    input: HubSelector.extend({ agent: OneOrMany.optional(), stale_after_ms: Ms.optional() }).strict(),
    output: z.object({ ...HubRef, agents: z.array(PresenceSchema) })
  },
  /** Appends an event as the operator (every upstream validation rule applies). */
  'hub.append': {
    input: HubSelector.extend({
      type: z.string(),
      stream: z.string(),
      room: z.string(),
      topic: z.string().nullable().optional(),
      to_agent: z.string().nullable().optional(),
      correlation_id: z.string().nullable().optional(),
      branch: z.string().nullable().optional(),
      base_commit: z.string().nullable().optional(),
      status: z.string().nullable().optional(),
      body: z.string().optional(),
      metadata: z.record(z.string(), z.unknown()).nullable().optional(),
      artifact_ids: z.array(z.string()).optional()
    }).strict(),
    output: z.object({ ...HubRef, event: HubEventSchema })
  },
  /** An `event.ack` of an existing event, as the operator. */
  'hub.ack': {
    input: HubSelector.extend({
      event_id: z.string(),
      status: z.string().nullable().optional(),
      body: z.string().optional(),
      topic: z.string().nullable().optional()
    }).strict(),
    output: z.object({ ...HubRef, event: HubEventSchema })
  },
  /** A canonical `task.request` from the operator; `repo_project` (or a registered `project`) checks the base commit exists. */
  'hub.taskCreate': {
    input: HubSelector.extend({
      project: z.string(),
      to_agent: z.string(),
      goal: z.string(),
      branch: z.string(),
      base_commit: z.string(),
      done: z.string(),
      repo_project: z.string().optional()
    }).strict(),
    output: z.object({ ...HubRef, task: HubEventSchema, handoff: z.string(), verified_in: z.string().nullable() })
  },
  /** A presence announcement (`type=status`, `to_agent='*'`, `room=status`) as the operator. */
  'hub.announce': {
    input: HubSelector.extend({
      body: z.string().optional(),
      stream: z.string().optional(),
      filters: z.record(z.string(), z.unknown()).optional(),
      cursor: z.string().nullable().optional()
    }).strict(),
    output: z.object({ ...HubRef, event: HubEventSchema })
  },
  'hub.inbox': {
    input: HubSelector.extend({ limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: z.object({
      ...HubRef,
      cursor: InboxCursorSchema.nullable(),
      unread: z.number().int(),
      events: z.array(HubEventSchema.extend({ unread: z.boolean() }))
    })
  },
  /** Moves the inbox cursor forward to `event_id` (default: the newest inbox event). */
  'hub.markRead': {
    input: HubSelector.extend({ event_id: Text.optional() }).strict(),
    output: z.object({ ...HubRef, cursor: InboxCursorSchema.nullable(), unread: z.number().int() })
  },
  /** Per hub (one, or every registered hub plus the default if it exists): agents, tasks, patches, inbox. */
  'hub.overview': {
    input: HubSelector.extend({ stuck_after_ms: Ms.optional(), stale_after_ms: Ms.optional() }).strict(),
    output: z.object({ operator: z.string(), hubs: z.array(HubOverviewSchema) })
  }
} as const

/** Events pushed by the hub watcher. */
export const hubEvents = {
  /** New rows in a hub (any writer), batched, previewed, in seq order. */
  'hub.events': z.object({ ...HubRef, events: z.array(HubEventSchema) }),
  /** The operator's unread inbox grew (coalesced per batch): raise a notification. */
  'hub.inbox': z.object({ ...HubRef, unread: z.number().int(), latest: HubEventSchema.nullable() }),
  /** A tailed hub went offline (with the reason) or came back. */
  'hub.status': z.object({ ...HubRef, online: z.boolean(), offline_reason: z.string().nullable() })
} as const
