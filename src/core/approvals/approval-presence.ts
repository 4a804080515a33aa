/**
 * Presence in approvals: what a decision's proof binds, how it is checked, and what the hook
 * records of its gate on each request.
 * - An allow that the gate's policy says needs presence counts only with a proof (a WebAuthn
 *   assertion, metadata `presence`) from an authenticator the gate trusts, over the challenge of
 *   exactly this request (its correlation and event ids, harness, agent, tool and the SHA-256 of the
 *   full input) and this decision (allow, always or not). Deny never needs one.
 * - The hook writes its gate's view on the request (metadata `gate`: the operator keys and policy
 *   it enforces, and whether this call needs presence), so the inbox and the history judge each
 *   decision as that hook did, not as a key claims.
 * Light: the WebAuthn library is loaded only when a proof is checked (core/presence).
 */
import { createHash } from 'node:crypto'
import { decisionChallengeText, inputHashText, type DecisionBinding, type PresencePolicy } from '../../shared/approvals/presence'
import type { ToolInput } from '../../shared/approvals/tool-call'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { ALLOWLIST_DECIDER_PREFIX, ALWAYS_ALLOW } from '../../shared/contract/hub-vocabulary'
import { readProof, verifyPresence, type StoredCredential } from '../presence'
import type { TrustVerdict } from './trust-verdict'

/** Metadata key of a decision's proof of presence. */
export const PRESENCE = 'presence'
/** Metadata key of the gate's view the hook records on its request. */
export const GATE = 'gate'

/** What the hook that made a request enforced for it. */
export interface GateView {
  /** The operator keys whose signed decisions it accepted. */
  keys: string[]
  presence: PresencePolicy
  /** Whether an allow of this call needed the operator's presence. */
  presence_required: boolean
  /** The risky-list category that made it need presence (null: every allow does, or none). */
  risk: string | null
  /** Authenticators the gate trusted. */
  authenticators: number
  /** An admin-owned gate (`--managed`). */
  managed: boolean
}

/** Reads the gate's view recorded on a request, or null (a hook from before presence, or none). */
export function readGateView(metadata: Record<string, unknown>): GateView | null {
  const g = metadata[GATE]
  if (!g || typeof g !== 'object' || Array.isArray(g)) return null
  const o = g as Record<string, unknown>
  if (!Array.isArray(o.keys) || typeof o.presence_required !== 'boolean' || typeof o.presence !== 'string') return null
  return {
    keys: o.keys.filter((k): k is string => typeof k === 'string'),
    presence: o.presence as PresencePolicy,
    presence_required: o.presence_required,
    risk: typeof o.risk === 'string' ? o.risk : null,
    authenticators: typeof o.authenticators === 'number' ? o.authenticators : 0,
    managed: o.managed === true
  }
}

/** The SHA-256 (hex) of a tool input as a proof binds it. */
export function inputSha256(input: ToolInput): string {
  return createHash('sha256').update(inputHashText(input), 'utf8').digest('hex')
}

/** What a decision of `request` binds, given the full input's hash. */
export function bindingOf(
  request: Pick<HubEventEnvelope, 'id' | 'correlation_id' | 'from_agent' | 'metadata'>,
  input_sha256: string,
  decision: 'allow' | 'deny',
  always: boolean
): DecisionBinding {
  const m = request.metadata
  return {
    correlation_id: request.correlation_id ?? '',
    request_id: request.id,
    harness: typeof m.harness === 'string' ? m.harness : '',
    agent: request.from_agent,
    tool_name: typeof m.tool_name === 'string' ? m.tool_name : '',
    input_sha256,
    decision,
    always
  }
}

/** The text a decision's proof is made over. */
export function decisionPresenceText(
  request: Pick<HubEventEnvelope, 'id' | 'correlation_id' | 'from_agent' | 'metadata'>,
  input_sha256: string,
  decision: 'allow' | 'deny',
  always: boolean
): string {
  return decisionChallengeText(bindingOf(request, input_sha256, decision, always))
}

/**
 * Checks the presence of an allow decision of `request`: its proof over this request and decision
 * from one of `credentials`. An allowlist decision has no proof of its own: it needs a rule the
 * operator approved with presence, which only the hook's own allowlist answer can show, so here it
 * does not count.
 */
export async function decisionPresence(
  e: Pick<HubEventEnvelope, 'metadata' | 'from_agent'>,
  request: Pick<HubEventEnvelope, 'id' | 'correlation_id' | 'from_agent' | 'metadata'>,
  input_sha256: string,
  credentials: readonly StoredCredential[]
): Promise<TrustVerdict> {
  const m = e.metadata
  const decidedBy = typeof m.decided_by === 'string' ? m.decided_by : e.from_agent
  if (decidedBy.startsWith(ALLOWLIST_DECIDER_PREFIX)) return { ok: false, why: 'an allowlist decision carries no presence' }
  const v = await verifyPresence(
    readProof(m[PRESENCE]),
    decisionPresenceText(request, input_sha256, 'allow', m[ALWAYS_ALLOW] === true),
    credentials
  )
  return v.ok ? { ok: true, key: null } : { ok: false, why: v.why }
}
