/**
 * Data types of the needs-you queue: everything waiting on the operator, across hubs and
 * projects, one item per thing to act on, each with its kind, agent, project, hub, since-when and
 * the address of the screen where the operator acts on it.
 */
import { z } from 'zod'

/**
 * What an item is: an approval request waiting; a patch waiting to be applied; a task addressed to
 * the operator (open) or requested by the operator and back (ready/blocked); an unread direct
 * message to the operator; a claimed task with no progress (stuck); a directive pending for a role
 * the operator answers for; an agent session waiting for input; an installed gate that would not
 * stop a call (broken, untrusted, its hub unreachable), with its fix; a budget crossed (its
 * sessions' tool calls wait for the operator).
 */
export const NEED_KINDS = ['approval', 'patch', 'task', 'message', 'stuck', 'directive', 'session', 'gate', 'budget', 'kept'] as const
export const NeedKindSchema = z.enum(NEED_KINDS)
/** The kind of a needs-you item. */
export type NeedKind = z.infer<typeof NeedKindSchema>

/** One thing waiting on the operator. */
export const NeedItemSchema = z.object({
  /** Stable across recomputations: kind, where, and the thing's own id. */
  key: z.string(),
  kind: NeedKindSchema,
  /** Who waits (or is waited on): the requesting agent, the patch's author, the sender. */
  agent: z.string().nullable(),
  project: z.string().nullable(),
  /** The hub's registered name (else its location) and location; null for directives. */
  hub: z.string().nullable(),
  palace: z.string().nullable(),
  /** Since when it waits (ISO time). */
  since: z.string(),
  /** One line naming it (a notification's title). */
  title: z.string(),
  /** One more line: the tool call, the patch, the message. */
  detail: z.string(),
  /** The thing's own id: event id, correlation id, directive id, session id. */
  ref: z.string(),
  /** The address where the operator acts on it (`#/approvals?...`). */
  link: z.string()
})
/** One needs-you item. */
export type NeedItem = z.infer<typeof NeedItemSchema>

/** Items per kind. */
export const NeedCountsSchema = z.object(Object.fromEntries(NEED_KINDS.map((k) => [k, z.number().int()])) as Record<NeedKind, z.ZodNumber>)
/** Items per kind. */
export type NeedCounts = Record<NeedKind, number>

/** Unread events in the operator's hub inboxes: direct ones (to the operator) apart from broadcasts. */
export const UnreadSchema = z.object({ direct: z.number().int(), broadcast: z.number().int() })

/** Where one source was read, or why it could not be (a hub offline; the fleet unreadable); a hub's own unread counts. */
export const NeedSourceSchema = z.object({
  source: z.string(),
  /** The hub's shown name and location (null for the directives). */
  hub: z.string().nullable(),
  palace: z.string().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
  unread: UnreadSchema.nullable()
})
/** One source of the queue. */
export type NeedSource = z.infer<typeof NeedSourceSchema>

/** The whole queue. */
export const NeedsListSchema = z.object({
  operator: z.string(),
  /** Ranked by waiting time, longest first. */
  items: z.array(NeedItemSchema),
  count: z.number().int(),
  counts: NeedCountsSchema,
  /** The longest-waiting item (the first), or null. */
  oldest: NeedItemSchema.nullable(),
  unread: UnreadSchema,
  sources: z.array(NeedSourceSchema),
  /** When it was computed. */
  at: z.string()
})
/** The whole queue. */
export type NeedsList = z.infer<typeof NeedsListSchema>

/** The queue changed: its size, its oldest item, what is new and what left (keys). */
export const NeedsChangedSchema = z.object({
  count: z.number().int(),
  oldest: NeedItemSchema.nullable(),
  added: z.array(NeedItemSchema),
  removed: z.array(z.string()),
  unread: UnreadSchema,
  at: z.string()
})
/** A `needs.changed` payload. */
export type NeedsChanged = z.infer<typeof NeedsChangedSchema>
