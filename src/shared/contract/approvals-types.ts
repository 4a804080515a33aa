/**
 * Data types of the approvals part of the contract (spec/hub-logstream.md section 9): a request
 * with its folded state and decisions (first wins, later ones are conflicts), allowlist rules.
 */
import { z } from 'zod'
import { DECISIONS, DONE_RECEIPTS, RECEIPT_STAGES } from './hub-vocabulary'
import { BudgetHoldSchema } from './usage-types'

/** One `approval.decision` as the inbox shows it. */
export const ApprovalDecisionSchema = z.object({
  /** The decision event's id and seq. */
  id: z.string(),
  seq: z.number().int(),
  decision: z.enum(DECISIONS),
  reason: z.string(),
  /** Operator id, `allowlist:<rule>` or `timeout`. */
  decided_by: z.string(),
  /** Who wrote the event (the operator, or the hook for allowlist and timeout decisions). */
  from_agent: z.string(),
  created_at: z.string(),
  /** The operator key that signed it (null: the hook's own timeout record). */
  signed_by: z.string().nullable().optional(),
  /** An allow that also asked to always allow such calls (the hook adds the narrowest grant the harness keeps: `native-grant.ts`). */
  always: z.boolean().optional(),
  /** An allow made with the operator's presence (a checked proof from an enrolled authenticator). */
  presence: z.boolean().optional()
})
/** A decision. */
export type ApprovalDecisionInfo = z.infer<typeof ApprovalDecisionSchema>

/**
 * A decision that did not come from a trusted operator: unsigned, badly signed, or signed by an
 * unknown key (an agent writing `approval.decision` itself). Never applied; shown naming its writer.
 */
export const ForgedDecisionSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  /** What it claims: the decision and who decided. */
  decision: z.string(),
  decided_by: z.string(),
  /** Who actually wrote the event (`from_agent`). */
  from_agent: z.string(),
  created_at: z.string(),
  /** Why it is not trusted (`unsigned`, `bad signature`, ...). */
  why: z.string()
})
/** A forged decision. */
export type ForgedDecision = z.infer<typeof ForgedDecisionSchema>

/**
 * Where a request stands: waiting, decided, abandoned (its harness went away; the hook recorded
 * it), expired (past its timeout, the hook gone without a record), or withdrawn (its session was
 * interrupted or ended before a decision: nobody waits for one).
 */
export const ApprovalStateSchema = z.enum(['pending', 'allow', 'deny', 'timeout', 'abandoned', 'expired', 'withdrawn'])
/** A request's state. */
export type ApprovalState = z.infer<typeof ApprovalStateSchema>

/** One `approval.receipt`: what happened to the request after it was asked (`RECEIPT_STAGES`). */
export const ApprovalReceiptSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  stage: z.enum(RECEIPT_STAGES),
  /** The harness event that said so (`PostToolUse`, `Interrupt`, ...), or `approve-hook` for a delivery. */
  hook_event: z.string(),
  reason: z.string(),
  from_agent: z.string(),
  created_at: z.string()
})
/** A receipt. */
export type ApprovalReceiptInfo = z.infer<typeof ApprovalReceiptSchema>

/**
 * How far a request got: asked (no decision yet), decided, delivered (the hook printed the
 * answer), done (the harness's own later event: `outcome`), withdrawn (its session was
 * interrupted or ended first: undecided, or a delivered allow that never ran), not_delivered (its
 * hook was gone before a decision: abandoned or expired).
 */
export const ApprovalStageSchema = z.enum(['asked', 'decided', 'delivered', 'done', 'withdrawn', 'not_delivered'])
/** A request's stage. */
export type ApprovalStage = z.infer<typeof ApprovalStageSchema>

/** Where a call comes from (the pure reader and its words: `shared/approvals/provenance.ts`). */
export const CallProvenanceSchema = z.object({
  mcp_server: z.object({ name: z.string(), source: z.string(), built_in: z.literal(true).optional() }).optional(),
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
  permission_mode: z.string().optional(),
  skill: z.object({ command_name: z.string(), command_source: z.string().optional(), invoked_by: z.string().optional() }).optional()
})

/** One `approval.request` folded with its decisions. */
export const ApprovalItemSchema = z.object({
  /** The hub's registered name (else its location) and location. */
  hub: z.string(),
  palace: z.string(),
  /** The request event. */
  id: z.string(),
  seq: z.number().int(),
  correlation_id: z.string(),
  /** The requesting agent (`from_agent`). */
  agent: z.string(),
  to_agent: z.string().nullable(),
  stream: z.string(),
  /** The stream without its `project/` prefix. */
  project: z.string(),
  harness: z.string().nullable(),
  /** The harness's hook event that asked (`PermissionRequest`, `PreToolUse`, ...). */
  hook_event_name: z.string().nullable().optional(),
  session_id: z.string().nullable(),
  cwd: z.string().nullable(),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  /** The input was too large for the request: `tool_input` is cut, the whole input is an attached artifact. */
  tool_input_truncated: z.boolean(),
  /** The request's one-line summary (its body). */
  summary: z.string(),
  created_at: z.string(),
  timeout_ms: z.number().int().nullable(),
  /** When the hook stops waiting (created_at + timeout_ms), if known. */
  expires_at: z.string().nullable(),
  state: ApprovalStateSchema,
  /** The first decision (it wins), or null. */
  decision: ApprovalDecisionSchema.nullable(),
  /** Decisions after the first: shown as conflicts, never applied. */
  conflicts: z.array(ApprovalDecisionSchema),
  /** Decisions in its thread that no trusted operator signed: ignored by the hook, shown as forged. */
  forged: z.array(ForgedDecisionSchema),
  /** Tool + input key: requests with the same one are identical. */
  signature: z.string(),
  /** Pending requests (this one included) with the same signature. */
  identical: z.number().int(),
  /** "Not now": hidden from the inbox and the needs-you queue until then (undecided, the agent still waits). */
  snoozed_until: z.string().nullable().optional(),
  /** Where the call comes from, as the harness said (`shared/approvals/provenance.ts`); null when it said nothing. */
  provenance: CallProvenanceSchema.nullable().optional(),
  /** The payload's fields no adapter knew, verbatim (bounded): the next contract change loses nothing. */
  extra_fields: z.record(z.string(), z.unknown()).nullable().optional(),
  /** An allow needs the operator's presence (the agent's gate said so, or this home's policy). */
  presence_required: z.boolean().optional(),
  /** Why: the risky-list entry it matched (null: every allow needs it, or none). */
  presence_risk: z.string().nullable().optional(),
  /** The budget that held the call for the operator (its session over budget), as the hook recorded it. */
  budget: BudgetHoldSchema.nullable().optional(),
  /** What the harness itself would remember on an "always" reply (OpenCode's `always` patterns), as its hook stored them. */
  harness_always: z.array(z.string()).nullable().optional(),
  /** How far the request got (from its decision and receipts). */
  stage: ApprovalStageSchema.optional(),
  /** What the harness did with the delivered call (stage `done`), else null. */
  outcome: z.enum(DONE_RECEIPTS).nullable().optional(),
  /** The thread's receipts, in seq order. */
  receipts: z.array(ApprovalReceiptSchema).optional(),
  /** Why an allowlist rule that reads as if it allowed the call did not (a wildcard over a dangerous argument), as the hook said. */
  rule_declined: z.string().nullable().optional(),
  /** A test request from `muster connect --test` or the Connect screen: no hook waits for it, so neither answer runs anything. */
  test: z.boolean().optional()
})
/** A request as the inbox shows it. */
export type ApprovalItem = z.infer<typeof ApprovalItemSchema>

/** One hub's part of the inbox: read, or why not. */
export const ApprovalHubSchema = z.object({ hub: z.string(), palace: z.string(), ok: z.boolean(), error: z.string().nullable() })

/** An allowlist rule with how often it fired. */
export const AllowRuleSchema = z.object({
  id: z.number().int(),
  agent_pattern: z.string(),
  tool_name: z.string(),
  input_pattern: z.string(),
  /** `Bash(npm test*)` (as `decided_by` records it, after `allowlist:`). */
  label: z.string(),
  note: z.string().nullable(),
  created_at: z.string(),
  hits: z.number().int(),
  last_hit_at: z.string().nullable(),
  /** Signed by a trusted operator key: only such rules answer a hook. */
  trusted: z.boolean(),
  /** Why an untrusted rule is not used (`unsigned`, `bad signature`, ...). */
  untrusted_reason: z.string().nullable()
})
/** An allowlist rule. */
export type AllowRule = z.infer<typeof AllowRuleSchema>
