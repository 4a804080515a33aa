/**
 * The approvals part of the contract: one inbox of `approval.request` events across every known
 * hub (spec/hub-logstream.md section 9), decisions written as the operator, and the allowlist
 * rules kept in Muster's state DB. Hubs are selected like the hub methods (`hub` or `palace`).
 */
import { z } from 'zod'
import { AllowRuleSchema, ApprovalHubSchema, ApprovalItemSchema } from './approvals-types'
import { PresenceChallengeSchema, PresenceProofSchema } from './presence-types'
import { HubEventSchema } from './hub-types'
import { OPERATOR_DECISIONS } from './hub-vocabulary'
import { HubSelector } from './hub'

export * from './approvals-types'

const Pattern = z.string().trim().min(1, 'must not be empty (use * for any)').max(1000)
/** A request: its event id (`evt_...`) or its correlation id (`appr_...`). */
const RequestRef = z.string().trim().min(1, 'request id is required').max(128)
const Reason = z.string().max(2000)

/** What one decision did: it won, or another decision was first (this one is kept as a conflict). */
const DecideResult = z.object({ item: ApprovalItemSchema, outcome: z.enum(['decided', 'conflict']), event: HubEventSchema })

/** Methods of the approvals inbox and its allowlist. */
export const approvalMethods = {
  /** Pending requests (oldest first) and decided ones (newest first) of one hub, or of every known hub. */
  'approvals.list': {
    input: HubSelector.extend({ history_limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: z.object({
      operator: z.string(),
      pending: z.array(ApprovalItemSchema),
      history: z.array(ApprovalItemSchema),
      hubs: z.array(ApprovalHubSchema)
    })
  },
  /**
   * Allows or denies a request as the operator; if another decision came first, this one is recorded
   * as a conflict. A request nobody waits for (timed out, abandoned, withdrawn, expired) is refused: "no agent is waiting".
   */
  'approvals.decide': {
    input: HubSelector.extend({
      id: RequestRef,
      decision: z.enum(OPERATOR_DECISIONS),
      reason: Reason.optional(),
      /** With allow: also always allow such calls (the harness's own permission update, where it keeps one). */
      always: z.boolean().optional(),
      /** With allow, where presence is needed: the proof over `approvals.presenceChallenge`'s challenge. */
      presence: PresenceProofSchema.optional()
    }).strict(),
    output: DecideResult
  },
  /**
   * What an allow of a request needs signed with presence: whether it is needed at all (the agent's
   * gate, else this home's policy), why, and the challenge that binds the request as shown (its ids,
   * harness, agent, tool, the SHA-256 of the full input) and the decision.
   */
  'approvals.presenceChallenge': {
    input: HubSelector.extend({ id: RequestRef, decision: z.enum(OPERATOR_DECISIONS), always: z.boolean().optional() }).strict(),
    output: PresenceChallengeSchema.extend({
      needed: z.boolean(),
      risk: z.string().nullable(),
      /** The SHA-256 (hex) of the full tool input the challenge binds. */
      input_sha256: z.string()
    })
  },
  /** The same decision for several requests (bulk approve of identical ones); each item reports its own outcome or error. */
  'approvals.decideMany': {
    input: z
      .object({
        items: z
          .array(HubSelector.extend({ id: RequestRef }).strict())
          .min(1)
          .max(500),
        decision: z.enum(OPERATOR_DECISIONS),
        reason: Reason.optional()
      })
      .strict(),
    output: z.object({
      results: z.array(z.union([DecideResult.extend({ id: z.string() }), z.object({ id: z.string(), error: z.string() })]))
    })
  },
  /**
   * "Not now": hides a pending request from the inbox's queue and the needs-you queue for
   * `minutes` (at most a day) without deciding it; the agent keeps waiting. 0 wakes it now.
   */
  'approvals.snooze': {
    input: HubSelector.extend({ id: RequestRef, minutes: z.number().int().min(0).max(1440) }).strict(),
    output: z.object({ item: ApprovalItemSchema })
  },
  /** Allowlist rules with their hit counts. */
  'approvals.rules': { input: z.object({}).strict(), output: z.object({ rules: z.array(AllowRuleSchema) }) },
  /** Adds a rule, or changes one (`id`); the same three patterns twice is a conflict. */
  'approvals.ruleSave': {
    input: z
      .object({
        id: z.number().int().min(1).optional(),
        agent_pattern: Pattern,
        tool_name: Pattern,
        input_pattern: Pattern,
        note: z.string().trim().max(500).optional()
      })
      .strict(),
    output: AllowRuleSchema
  },
  'approvals.ruleDelete': { input: z.object({ id: z.number().int().min(1) }).strict(), output: z.object({ deleted: z.number().int() }) }
} as const

/** Approvals push nothing of their own: requests and decisions arrive as `hub.events`. */
export const approvalEvents = {} as const
