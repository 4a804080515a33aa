/**
 * Receipts: what happened to a request after it was asked, as `approval.receipt` events in its
 * thread (room `approvals`, its correlation id, `ack_of` the request): `delivered` (the hook
 * printed the answer), the harness's own later event for the call (`ran`, `failed`, `denied`,
 * `interrupted`), or `withdrawn` (the session was interrupted or ended first). Each stage is
 * recorded once per request: `recordReceipt` looks at the thread first, so a marker taken twice
 * (a stale claim taken again) never doubles one. Receipts are the agent side's account, written
 * unsigned by its hooks; they never decide anything: a withdrawal ends the hook's wait with a deny.
 * No zod: the hook processes load this.
 */
import type { ApprovalReceiptInfo } from '../../shared/contract/approvals-types'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import {
  ACK_OF,
  DONE_RECEIPTS,
  EventType,
  RECEIPT_STAGES,
  Room,
  type ReceiptOutcome,
  type ReceiptStage
} from '../../shared/contract/hub-vocabulary'
import type { AppendInput, HubPort } from '../hub'
import { oneOfField, textField } from './metadata-fields'
import type { RequestRef } from './receipt-markers'

/** One receipt to record. */
export interface ReceiptWrite {
  stage: ReceiptStage
  /** The harness event that said so (`PostToolUse`, `Interrupt`, ...), or `approve-hook` for a delivery. */
  hook_event: string
  /** Who writes it: the agent whose hooks report it. */
  from_agent: string
  /** A short reason, in the operator's words. */
  reason?: string
  /** The verdict a delivery carried. */
  verdict?: 'allow' | 'deny'
  tool_use_id?: string | null
}

/** The request a receipt names, from its envelope. */
export function requestRef(e: Pick<HubEventEnvelope, 'id' | 'correlation_id' | 'stream' | 'from_agent'>): RequestRef {
  return { id: e.id, correlation_id: e.correlation_id ?? e.id, stream: e.stream, agent: e.from_agent }
}

/** The `approval.receipt` append of one stage. */
export function receiptAppend(request: RequestRef, r: ReceiptWrite): AppendInput {
  const reason = (r.reason ?? '').trim().slice(0, 300)
  return {
    type: EventType.approvalReceipt,
    stream: request.stream,
    room: Room.approvals,
    from_agent: r.from_agent,
    to_agent: request.agent,
    correlation_id: request.correlation_id,
    body: reason ? `${r.stage}: ${reason}` : r.stage,
    metadata: {
      [ACK_OF]: request.id,
      stage: r.stage,
      hook_event: r.hook_event,
      ...(r.verdict ? { verdict: r.verdict } : {}),
      ...(reason ? { reason } : {}),
      ...(r.tool_use_id ? { tool_use_id: r.tool_use_id } : {})
    }
  }
}

/** A receipt event of this request read back, or null when `e` is not one. */
export function readReceipt(e: HubEventEnvelope, request?: Pick<HubEventEnvelope, 'id' | 'correlation_id'>): ApprovalReceiptInfo | null {
  if (e.type !== EventType.approvalReceipt) return null
  if (request && (e.correlation_id !== request.correlation_id || (e.metadata[ACK_OF] !== undefined && e.metadata[ACK_OF] !== request.id)))
    return null
  const stage = oneOfField<ReceiptStage>(e.metadata, 'stage', RECEIPT_STAGES)
  if (!stage) return null
  return {
    id: e.id,
    seq: e.seq,
    stage,
    hook_event: textField(e.metadata, 'hook_event'),
    reason: textField(e.metadata, 'reason'),
    from_agent: e.from_agent,
    created_at: e.created_at
  }
}

/** True for a stage that says what the harness did with a delivered call. */
export const isOutcome = (stage: ReceiptStage): stage is ReceiptOutcome => (DONE_RECEIPTS as readonly string[]).includes(stage)

/** True when a receipt of this stage already stands for the request (any outcome counts as one: a call ends once). */
function already(existing: readonly ApprovalReceiptInfo[], stage: ReceiptStage): boolean {
  return existing.some((x) => x.stage === stage || (isOutcome(stage) && isOutcome(x.stage)))
}

/**
 * Records one receipt unless the thread has it already (exactly once per request and stage; one
 * outcome per request); returns the event, or null when it was there.
 */
export async function recordReceipt(
  hub: Pick<HubPort, 'append' | 'list'>,
  request: RequestRef,
  r: ReceiptWrite
): Promise<HubEventEnvelope | null> {
  const page = await hub.list({ correlation_id: request.correlation_id, type: EventType.approvalReceipt, order: 'asc', limit: 50 })
  const existing = page.events.flatMap((e) => readReceipt(e, { id: request.id, correlation_id: request.correlation_id }) ?? [])
  if (already(existing, r.stage)) return null
  return hub.append(receiptAppend(request, r))
}

/** True when `e` withdraws this request (the session ended or was interrupted before a decision). */
export function withdraws(e: HubEventEnvelope, request: Pick<HubEventEnvelope, 'id' | 'correlation_id'>): boolean {
  return readReceipt(e, request)?.stage === 'withdrawn'
}
