/**
 * The hub's vocabulary, named once (spec/hub-logstream.md sections 4-6 and 9): event types,
 * rooms, statuses, task states, artifact kinds and the broadcast address. Core, CLI and screens
 * use these names instead of string literals, so a typo is a compile error, not a silent filter.
 */

/** Event types Muster reads or writes (any `^[a-z0-9][a-z0-9_.-]{0,63}$` is valid on the wire). */
export const EventType = {
  taskRequest: 'task.request',
  taskReply: 'task.reply',
  ack: 'event.ack',
  patchReady: 'patch.ready',
  status: 'status',
  approvalRequest: 'approval.request',
  approvalDecision: 'approval.decision',
  approvalReceipt: 'approval.receipt',
  chatMessage: 'chat.message',
  reviewComment: 'review.comment',
  ciResult: 'ci.result'
} as const
/** One of the named event types. */
export type KnownEventType = (typeof EventType)[keyof typeof EventType]
/** The named event types, in the order the timeline offers them. */
export const KNOWN_EVENT_TYPES: readonly KnownEventType[] = Object.values(EventType)

/** Rooms by convention (`approvals` is Muster's). */
export const Room = {
  delegation: 'delegation',
  patches: 'patches',
  reviews: 'reviews',
  status: 'status',
  rooms: 'rooms',
  approvals: 'approvals'
} as const
/** One of the conventional rooms. */
export type KnownRoom = (typeof Room)[keyof typeof Room]
/** The conventional rooms. */
export const KNOWN_ROOMS: readonly KnownRoom[] = Object.values(Room)

/** Event statuses (the only values the `status` column may hold besides NULL). */
export const Status = {
  open: 'open',
  claimed: 'claimed',
  ready: 'ready',
  applied: 'applied',
  blocked: 'blocked',
  failed: 'failed',
  superseded: 'superseded'
} as const
/** One of the event statuses. */
export type EventStatus = (typeof Status)[keyof typeof Status]
/** Every event status, in lifecycle order. */
export const EVENT_STATUSES = [
  'open',
  'claimed',
  'ready',
  'applied',
  'blocked',
  'failed',
  'superseded'
] as const satisfies readonly EventStatus[]
/** Statuses an ack may carry (section 4, "Acks"). */
export const ACK_STATUSES = ['claimed', 'applied', 'failed', 'blocked', 'superseded'] as const satisfies readonly EventStatus[]
/** Statuses that close a `patch.ready` (an ack with one of them means "no longer waiting"). */
/** Where a patch stands for the operator (Muster's view of a `patch.ready` and its acks). */
export const PATCH_STATES = ['waiting', 'applied', 'failed', 'superseded', 'refused'] as const
/** One patch state. */
export type PatchState = (typeof PATCH_STATES)[number]
export const PATCH_CLOSING_STATUSES: readonly EventStatus[] = ['applied', 'failed', 'superseded']
/** Statuses a `task.reply` may carry from the UI ('' = none). */
export const REPLY_STATUSES = ['', 'blocked', 'failed', 'ready'] as const

/** Task states folded from a thread: the statuses, named for tasks. */
export const TASK_STATES = [
  'open',
  'claimed',
  'ready',
  'applied',
  'failed',
  'blocked',
  'superseded'
] as const satisfies readonly EventStatus[]
/** One of the task states. */
export type TaskState = (typeof TASK_STATES)[number]

/** Artifact kinds (section 5). */
export const ARTIFACT_KINDS = ['patch', 'file', 'log', 'json', 'note'] as const
/** One of the artifact kinds. */
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number]

/** `to_agent = '*'`: a broadcast, matched by every `to_agent` filter. */
export const BROADCAST = '*'
/** The stream presence announcements go to by default. */
export const PRESENCE_STREAM = 'presence'
/** Metadata key of an ack's target (`{"ack_of": <event id>}`). */
export const ACK_OF = 'ack_of'

/** An approval's outcome (`approval.decision` metadata `decision`, section 9). */
export const Decision = { allow: 'allow', deny: 'deny', timeout: 'timeout' } as const
/** One of the approval outcomes. */
export type ApprovalDecision = (typeof Decision)[keyof typeof Decision]
/** Every approval outcome. */
export const DECISIONS = ['allow', 'deny', 'timeout'] as const satisfies readonly ApprovalDecision[]
/** What an operator may decide (a timeout is recorded only by the hook that stopped waiting). */
export const OPERATOR_DECISIONS = ['allow', 'deny'] as const satisfies readonly ApprovalDecision[]
/** `decided_by` of a timeout decision. */
export const DECIDED_BY_TIMEOUT = 'timeout'
/** `decided_by` of the timeout a hook records when its harness is gone: the request was abandoned. */
export const DECIDED_BY_ABANDONED = 'abandoned'
/** The reason recorded with an abandoned request. */
export const ABANDONED_REASON = 'the harness went away before a decision (its process ended); nothing is waiting for an answer'
/** `approval.decision` metadata flag: the operator approved and asked to always allow such calls. */
export const ALWAYS_ALLOW = 'always'
/** `decided_by` of an allowlist rule's decision is `allowlist:<rule>`. */
export const ALLOWLIST_DECIDER_PREFIX = 'allowlist:'
/**
 * What an `approval.receipt` (metadata `stage`, in the request's thread) says happened after the
 * request: `delivered` (the hook printed the answer), the harness's own later event for the call
 * (`ran`, `failed`, `denied`, `interrupted`), or `withdrawn` (the session was interrupted or ended
 * first: nobody waits for a decision, or a delivered call never ran).
 */
export const RECEIPT_STAGES = ['delivered', 'ran', 'failed', 'denied', 'interrupted', 'withdrawn'] as const
/** One receipt stage. */
export type ReceiptStage = (typeof RECEIPT_STAGES)[number]
/** The receipts that close a delivered call: what the harness did with it. */
export const DONE_RECEIPTS = ['ran', 'failed', 'denied', 'interrupted'] as const satisfies readonly ReceiptStage[]
/** One outcome of a delivered call. */
export type ReceiptOutcome = (typeof DONE_RECEIPTS)[number]
/** Approval correlation ids: `appr_<8+ lowercase hex>`. */
export const APPROVAL_ID_RE = /^appr_[0-9a-f]{8,}$/
/** Harnesses whose hooks route tool calls to the operator (`approval.request` metadata `harness`). */
export const Harness = {
  claudeCode: 'claude-code',
  codex: 'codex',
  gemini: 'gemini',
  copilot: 'copilot',
  cursor: 'cursor',
  opencode: 'opencode'
} as const
/** One of the harnesses. */
export type HarnessId = (typeof Harness)[keyof typeof Harness]
/** Every harness, in the order the README lists them. */
export const HARNESSES = Object.values(Harness) as readonly HarnessId[]
/** Hook events `muster approve-hook` answers. */
export const HookEvent = { preToolUse: 'PreToolUse', permissionRequest: 'PermissionRequest' } as const
/** One of the hook events `muster approve-hook` answers. */
export type HookEventName = (typeof HookEvent)[keyof typeof HookEvent]
