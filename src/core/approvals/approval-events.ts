/**
 * Approval events (spec/hub-logstream.md section 9) as hub appends, and their fold. A request is
 * `approval.request` in room `approvals` with correlation id `appr_<hex>`; every decision is an
 * `approval.decision` in the same thread. The first decision (by seq, the hub's arrival order)
 * wins; later ones are conflicts, shown and never applied. No zod: the hook process loads this.
 */
import { randomBytes } from 'node:crypto'
import { expiryDeadline } from '../../shared/approvals/expiry'
import { readProvenance, type CallProvenance } from '../../shared/approvals/provenance'
import { readToolCall, summarizeToolCall, type ToolInput, callSignature } from '../../shared/approvals/tool-call'
import type { RuleSpec } from '../../shared/approvals/allow-rules'
import type {
  ApprovalDecisionInfo,
  ApprovalItem,
  ApprovalReceiptInfo,
  ApprovalStage,
  ApprovalState,
  ForgedDecision
} from '../../shared/contract/approvals-types'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import type { BudgetHoldInfo } from '../../shared/contract/usage-types'
import {
  ACK_OF,
  ALWAYS_ALLOW,
  DECIDED_BY_ABANDONED,
  DECISIONS,
  EventType,
  Room,
  Status,
  type ApprovalDecision,
  type ReceiptOutcome
} from '../../shared/contract/hub-vocabulary'
import { type AppendInput, taskSlug } from '../hub'
import type { PresenceProof } from '../presence'
import { PRESENCE, readGateView } from './approval-presence'
import { isOutcome, readReceipt } from './approval-receipts'
import { oneOfField, textField } from './metadata-fields'
import { SIGNATURE, SIGNED_RULE, decisionPayload, type DecisionSigner, type DecisionTrust, type SignatureRef } from './decision-trust'
/** The metadata key marking a test request (`muster connect --test`, the Connect screen). */
export const CONNECT_TEST = 'connect_test'

/** A request's metadata is kept under this size (the hub's limit is 64 KiB). */
export const MAX_REQUEST_METADATA_BYTES = 60 * 1024

/** A fresh approval correlation id: `appr_` + 12 hex. */
export function newApprovalId(): string {
  return `appr_${randomBytes(6).toString('hex')}`
}

/** What a hook asks for. */
export interface ApprovalAsk {
  agent: string
  project: string
  /** The operator's id, or `'*'`. */
  to_agent: string
  harness: string
  hook_event_name: string
  session_id: string | null
  cwd: string | null
  tool_use_id: string | null
  tool_name: string
  tool_input: ToolInput
  timeout_ms: number
  /** Where the call comes from, as the harness said (MCP server, subagent, permission mode, skill). */
  provenance?: CallProvenance
  /** The payload's fields no adapter knows, verbatim and bounded. */
  extra?: Record<string, unknown>
  /** The budget holding the call for the operator (its session over budget), shown on the request. */
  budget?: BudgetHoldInfo
  /** What the harness itself would remember on an "always" reply (OpenCode's `always` patterns). */
  harness_always?: string[]
  /** Why an allowlist rule that reads as if it allowed the call does not (the dangerous-argument guard). */
  rule_declined?: string
  /** A test request (`muster connect --test`): no hook waits for it, so neither answer runs anything. */
  test?: boolean
}

/** The stream of a project: `project/<slug>` (the task slug rule). */
export function projectStream(project: string): string {
  return `project/${taskSlug(project, 'project')}`
}

/** Cuts long strings in a tool input until its JSON fits `maxBytes` (the full input goes to an artifact). */
export function fitToolInput(input: ToolInput, maxBytes: number): { input: ToolInput; truncated: boolean } {
  const size = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8')
  if (size(input) <= maxBytes) return { input, truncated: false }
  for (let cap = 16_384; cap >= 64; cap = Math.floor(cap / 2)) {
    const cut = JSON.parse(JSON.stringify(input), (_k, v: unknown) =>
      typeof v === 'string' && v.length > cap ? `${v.slice(0, cap)}… [${v.length - cap} more characters]` : v
    ) as ToolInput
    if (size(cut) <= maxBytes) return { input: cut, truncated: true }
  }
  return { input: { note: 'tool input too large to preview' }, truncated: true }
}

/** The `approval.request` append for an ask (the caller adds artifact ids for a truncated input). */
export function requestAppend(ask: ApprovalAsk, correlationId: string): { append: AppendInput; truncated: boolean } {
  const { input, truncated } = fitToolInput(ask.tool_input, MAX_REQUEST_METADATA_BYTES - 2048)
  return {
    truncated,
    append: {
      type: EventType.approvalRequest,
      stream: projectStream(ask.project),
      room: Room.approvals,
      from_agent: ask.agent,
      to_agent: ask.to_agent,
      correlation_id: correlationId,
      status: Status.open,
      body: `${summarizeToolCall(readToolCall(ask.tool_name, ask.tool_input))}${ask.budget ? ` (held: over budget ${ask.budget.label})` : ''}`,
      metadata: {
        tool_name: ask.tool_name,
        tool_input: input,
        harness: ask.harness,
        session_id: ask.session_id,
        cwd: ask.cwd,
        timeout_ms: ask.timeout_ms,
        hook_event_name: ask.hook_event_name,
        ...(ask.tool_use_id ? { tool_use_id: ask.tool_use_id } : {}),
        ...(truncated ? { tool_input_truncated: true } : {}),
        ...(ask.provenance ? { provenance: ask.provenance } : {}),
        ...(ask.extra ? { extra_fields: ask.extra } : {}),
        ...(ask.budget ? { budget: ask.budget } : {}),
        ...(ask.harness_always ? { harness_always: ask.harness_always } : {}),
        ...(ask.rule_declined ? { rule_declined: ask.rule_declined.slice(0, 1000) } : {}),
        ...(ask.test ? { [CONNECT_TEST]: true } : {})
      }
    }
  }
}

/**
 * The `approval.decision` append answering a request: signed when a signer is given (an
 * operator's decision), carrying its signed rule when an allowlist rule decided it, and the
 * operator's proof of presence when an allow was made with one.
 */
export function decisionAppend(
  request: Pick<HubEventEnvelope, 'id' | 'stream' | 'room' | 'from_agent' | 'correlation_id'>,
  d: { decision: ApprovalDecision; reason: string; decided_by: string; from_agent: string; always?: boolean },
  proof: { signer?: DecisionSigner; rule?: RuleSpec & { signature: SignatureRef | null }; presence?: PresenceProof } = {}
): AppendInput {
  const reason = d.reason.trim()
  const always = d.always === true && d.decision === 'allow'
  const signature = proof.signer?.sign(
    decisionPayload({
      correlation_id: request.correlation_id ?? null,
      ack_of: request.id,
      decision: d.decision,
      reason,
      decided_by: d.decided_by,
      always
    })
  )
  const rule = proof.rule
    ? {
        agent_pattern: proof.rule.agent_pattern,
        tool_name: proof.rule.tool_name,
        input_pattern: proof.rule.input_pattern,
        ...(proof.rule.signature ? { [SIGNATURE]: proof.rule.signature } : {})
      }
    : null
  return {
    type: EventType.approvalDecision,
    stream: request.stream,
    room: request.room,
    from_agent: d.from_agent,
    to_agent: request.from_agent,
    correlation_id: request.correlation_id ?? null,
    body: reason ? `${d.decision}: ${reason}` : d.decision,
    metadata: {
      [ACK_OF]: request.id,
      decision: d.decision,
      reason,
      decided_by: d.decided_by,
      ...(always ? { [ALWAYS_ALLOW]: true } : {}),
      ...(signature ? { [SIGNATURE]: signature } : {}),
      ...(rule ? { [SIGNED_RULE]: rule } : {}),
      ...(proof.presence && d.decision === 'allow' ? { [PRESENCE]: proof.presence } : {})
    }
  }
}

/** A decision event read back, or null when the event is not a well-formed decision. */
export function readDecision(e: HubEventEnvelope, signedBy: string | null = null): ApprovalDecisionInfo | null {
  if (e.type !== EventType.approvalDecision) return null
  const decision = oneOfField<ApprovalDecision>(e.metadata, 'decision', DECISIONS)
  if (!decision) return null
  return {
    id: e.id,
    seq: e.seq,
    decision,
    reason: textField(e.metadata, 'reason'),
    decided_by: textField(e.metadata, 'decided_by', e.from_agent),
    from_agent: e.from_agent,
    signed_by: signedBy,
    ...(decision === 'allow' && e.metadata[ALWAYS_ALLOW] === true ? { always: true } : {}),
    created_at: e.created_at
  }
}

/** A thread's decisions split by trust: from an operator (in seq order), and forged ones. */
export function judgeDecisions(
  request: HubEventEnvelope,
  events: readonly HubEventEnvelope[],
  trust: DecisionTrust
): { decisions: ApprovalDecisionInfo[]; forged: ForgedDecision[] } {
  const decisions: ApprovalDecisionInfo[] = []
  const forged: ForgedDecision[] = []
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (!decidesRequest(e, request)) continue
    const v = trust.checkDecision(e, request)
    const d = readDecision(e, v.ok ? v.key : null)!
    if (v.ok && d.decision === 'allow' && trust.presence?.verdict(e.id)?.ok === true) d.presence = true
    if (v.ok) decisions.push(d)
    else
      forged.push({
        id: e.id,
        seq: e.seq,
        decision: d.decision,
        decided_by: d.decided_by,
        from_agent: e.from_agent,
        created_at: e.created_at,
        why: v.why
      })
  }
  return { decisions, forged }
}

/** True when `e` is a well-formed decision of this request (same thread; `ack_of` absent or naming it). */
export function decidesRequest(e: HubEventEnvelope, request: Pick<HubEventEnvelope, 'id' | 'correlation_id'>): boolean {
  return (
    e.correlation_id === request.correlation_id &&
    (e.metadata[ACK_OF] === undefined || e.metadata[ACK_OF] === request.id) &&
    readDecision(e) !== null
  )
}

/** A stored request's extra payload fields (an object), or null. */
const extraOf = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : null)
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** When a request's hook stops waiting, or null without a known timeout. */
export function expiresAt(request: HubEventEnvelope): Date | null {
  const t = num(request.metadata.timeout_ms)
  return t === null ? null : new Date(Date.parse(request.created_at) + t)
}

/**
 * Folds a request with its thread's decisions and receipts (any order; sorted by seq here): the
 * first decision a trusted operator gave wins, the rest are conflicts, untrusted ones are forged
 * (never applied); a withdrawal before any decision wins over them all; with none, the request is
 * pending until its timeout has passed (plus a grace for the hook's own timeout record), then
 * expired. The receipts give its stage (`stageOf`).
 */
export function foldApproval(
  request: HubEventEnvelope,
  decisionEvents: readonly HubEventEnvelope[],
  where: { hub: string; palace: string },
  trust: DecisionTrust,
  now = Date.now()
): ApprovalItem {
  const judged = judgeDecisions(request, decisionEvents, trust)
  const receipts = decisionEvents.flatMap((e) => readReceipt(e, request) ?? []).sort((a, b) => a.seq - b.seq)
  // a withdrawal before any decision ends the request: later decisions reached nobody (conflicts)
  const withdrawal = receipts.find((r) => r.stage === 'withdrawn') ?? null
  const withdrawnFirst = withdrawal !== null && (judged.decisions[0]?.seq ?? Infinity) > withdrawal.seq
  const first = withdrawnFirst ? null : (judged.decisions[0] ?? null)
  const conflicts = withdrawnFirst ? judged.decisions : judged.decisions.slice(1)
  const forged = judged.forged
  const expires = expiresAt(request)
  const state: ApprovalState = withdrawnFirst
    ? 'withdrawn'
    : first
      ? first.decision === 'timeout' && first.decided_by === DECIDED_BY_ABANDONED
        ? 'abandoned'
        : first.decision
      : now > expiryDeadline(request.created_at, request.metadata.timeout_ms)
        ? 'expired'
        : 'pending'
  const { stage, outcome } = stageOf(state, receipts)
  const toolName = text(request.metadata.tool_name) ?? 'unknown'
  const toolInput =
    request.metadata.tool_input && typeof request.metadata.tool_input === 'object' && !Array.isArray(request.metadata.tool_input)
      ? (request.metadata.tool_input as ToolInput)
      : {}
  return {
    hub: where.hub,
    palace: where.palace,
    id: request.id,
    seq: request.seq,
    correlation_id: request.correlation_id ?? request.id,
    agent: request.from_agent,
    to_agent: request.to_agent,
    stream: request.stream,
    project: request.stream.replace(/^project\//, ''),
    harness: text(request.metadata.harness),
    hook_event_name: text(request.metadata.hook_event_name),
    session_id: text(request.metadata.session_id),
    cwd: text(request.metadata.cwd),
    tool_name: toolName,
    tool_input: toolInput,
    tool_input_truncated: request.metadata.tool_input_truncated === true,
    summary: request.body,
    created_at: request.created_at,
    timeout_ms: num(request.metadata.timeout_ms),
    expires_at: expires ? expires.toISOString().replace(/\.\d{3}Z$/, 'Z') : null,
    state,
    decision: first ?? null,
    conflicts,
    forged,
    signature: callSignature(toolName, toolInput),
    identical: 1,
    provenance: readProvenance(request.metadata.provenance),
    extra_fields: extraOf(request.metadata.extra_fields),
    presence_required: trust.presence?.needed(request) ?? readGateView(request.metadata)?.presence_required ?? false,
    presence_risk: trust.presence?.risk?.(request) ?? readGateView(request.metadata)?.risk ?? null,
    budget: budgetHoldOf(request.metadata.budget),
    harness_always: stringsOf(request.metadata.harness_always),
    stage,
    outcome,
    receipts,
    rule_declined: typeof request.metadata.rule_declined === 'string' ? request.metadata.rule_declined.slice(0, 1000) : null,
    ...(request.metadata[CONNECT_TEST] === true ? { test: true } : {})
  }
}

/** A stored list of strings (at most 16, each cut to 256 characters), or null. */
function stringsOf(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null
  const list = v.filter((x): x is string => typeof x === 'string').slice(0, 16)
  return list.length ? list.map((x) => x.slice(0, 256)) : null
}

/** How far a request got, from its state and its receipts (seq order). */
export function stageOf(
  state: ApprovalState,
  receipts: readonly ApprovalReceiptInfo[]
): { stage: ApprovalStage; outcome: ReceiptOutcome | null } {
  if (state === 'withdrawn') return { stage: 'withdrawn', outcome: null }
  if (state === 'pending') return { stage: 'asked', outcome: null }
  if (state === 'abandoned' || state === 'expired') return { stage: 'not_delivered', outcome: null }
  const done = receipts.find((r) => isOutcome(r.stage))
  if (done) return { stage: 'done', outcome: done.stage as ReceiptOutcome }
  // a delivered allow whose session ended before the call ran
  if (receipts.some((r) => r.stage === 'withdrawn')) return { stage: 'withdrawn', outcome: null }
  if (receipts.some((r) => r.stage === 'delivered')) return { stage: 'delivered', outcome: null }
  return { stage: 'decided', outcome: null }
}

/** The budget hold a request's metadata carries, or null when none (or not well-formed). */
function budgetHoldOf(v: unknown): BudgetHoldInfo | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  const n = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null)
  const scopes = ['session', 'agent', 'project', 'day']
  if (typeof o.id !== 'number' || typeof o.scope !== 'string' || !scopes.includes(o.scope) || typeof o.label !== 'string') return null
  return {
    id: o.id,
    scope: o.scope as BudgetHoldInfo['scope'],
    target: typeof o.target === 'string' ? o.target : '',
    label: o.label,
    limit_tokens: n(o.limit_tokens),
    limit_usd: n(o.limit_usd),
    used_tokens: n(o.used_tokens) ?? 0,
    used_usd: n(o.used_usd),
    project: typeof o.project === 'string' ? o.project : null,
    rule_id: Number.isSafeInteger(o.rule_id) ? (o.rule_id as number) : null
  }
}
