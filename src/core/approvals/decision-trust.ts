/**
 * Which approval decisions and allowlist rules come from an operator: ed25519 signatures over a
 * fixed payload, checked against the operator keys a hook or an inbox trusts. Only the operator's
 * Muster holds a private key; agents write to the same hub (and may write to the state DB), so an
 * unsigned or badly signed `approval.decision` or rule is never acted on and is shown as forged.
 *
 * Trusted without a signature: a `timeout` written by the requesting agent itself (the hook's own
 * record; it denies, so nothing is gained by forging one). An allowlist decision is trusted when
 * the rule it carries is signed by a trusted key and allows the request. Light on purpose (only
 * node:crypto): the hook process loads this on every tool call.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import { ruleMatches, type RuleSpec } from '../../shared/approvals/allow-rules'
import type { ToolInput } from '../../shared/approvals/tool-call'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { ACK_OF, ALLOWLIST_DECIDER_PREFIX, EventType } from '../../shared/contract/hub-vocabulary'
import { readGateView } from './approval-presence'
import { textField } from './metadata-fields'
import type { TrustVerdict } from './trust-verdict'

/** Metadata key of a decision's signature (`{"key": <key id>, "sig": <base64url>}`). */
export const SIGNATURE = 'signature'
/** Metadata key of the signed rule an allowlist decision was made by. */
export const SIGNED_RULE = 'rule'
/** Key ids are `ed25519:` + the raw 32-byte public key in base64url. */
export const KEY_ID_RE = /^ed25519:[A-Za-z0-9_-]{43}$/

/** A signature as stored: which key, and the signature bytes (base64url). */
export interface SignatureRef {
  key: string
  sig: string
}

/** Signs payload text with the operator's private key. */
export interface DecisionSigner {
  /** The key id (`ed25519:...`). */
  readonly key: string
  sign(payload: string): SignatureRef
}

/** The fields of a decision that its signature covers. */
export interface DecisionFields {
  correlation_id: string | null
  ack_of: string
  decision: string
  reason: string
  decided_by: string
  always: boolean
}

/** The text a decision's signature is made over. */
export function decisionPayload(f: DecisionFields): string {
  return JSON.stringify(['muster.approval.decision/1', f.correlation_id, f.ack_of, f.decision, f.reason, f.decided_by, f.always])
}

/** The text an allowlist rule's signature is made over. */
export function rulePayload(r: RuleSpec): string {
  return JSON.stringify(['muster.allow-rule/1', r.agent_pattern, r.tool_name, r.input_pattern])
}

const keyObjects = new Map<string, KeyObject>()

/**
 * The public key of a key id, or null when the id is not one. Imported as a JWK (the raw key):
 * on a cold process that is cheaper than decoding an SPKI DER (the hook imports one per call).
 */
function publicKey(id: string): KeyObject | null {
  if (!KEY_ID_RE.test(id)) return null
  let k = keyObjects.get(id)
  if (!k) {
    const x = id.slice('ed25519:'.length)
    if (Buffer.from(x, 'base64url').length !== 32) return null
    k = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' })
    keyObjects.set(id, k)
  }
  return k
}

/** Reads a stored signature reference, or null. */
export function readSignature(v: unknown): SignatureRef | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const { key, sig } = v as Record<string, unknown>
  return typeof key === 'string' && typeof sig === 'string' ? { key, sig } : null
}

/**
 * Which allows need the operator's presence, and the verdicts on their proofs, checked beforehand
 * (proofs are checked asynchronously, with the WebAuthn library; a fold is synchronous).
 */
export interface PresenceOracle {
  /** Whether an allow of this request needs presence. */
  needed(request: Pick<HubEventEnvelope, 'id' | 'from_agent' | 'metadata'>): boolean
  /** The risky-list entry that makes it need presence, when known. */
  risk?(request: Pick<HubEventEnvelope, 'id' | 'from_agent' | 'metadata'>): string | null
  /** The verdict on a decision event's presence; undefined: not checked (so it does not count). */
  verdict(decisionId: string): TrustVerdict | undefined
}

/** The operator keys a hook or an inbox accepts, and the presence an allow needs. */
export class DecisionTrust {
  readonly keys: ReadonlySet<string>
  constructor(
    keys: Iterable<string>,
    readonly presence: PresenceOracle | null = null
  ) {
    this.keys = new Set([...keys].filter((k) => KEY_ID_RE.test(k)))
  }

  /** The same keys, with presence judged by `oracle`. */
  withPresence(oracle: PresenceOracle): DecisionTrust {
    return new DecisionTrust(this.keys, oracle)
  }

  /** Checks a signature over `payload`: made by a trusted key, and valid. */
  check(payload: string, ref: SignatureRef | null): TrustVerdict {
    if (!ref) return { ok: false, why: 'unsigned' }
    if (!this.keys.has(ref.key)) return { ok: false, why: `signed by a key this Muster does not trust (${ref.key})` }
    let valid = false
    try {
      const pub = publicKey(ref.key)
      valid = !!pub && /^[A-Za-z0-9_-]{86}$/.test(ref.sig) && verify(null, Buffer.from(payload), pub, Buffer.from(ref.sig, 'base64url'))
    } catch {
      valid = false
    }
    return valid ? { ok: true, key: ref.key } : { ok: false, why: 'bad signature' }
  }

  /** Checks an allowlist rule's stored signature. */
  checkRule(rule: RuleSpec, ref: SignatureRef | null): TrustVerdict {
    return this.check(rulePayload(rule), ref)
  }

  /**
   * Whether a decision event of `request`'s thread comes from an operator (see the file comment),
   * as the request's hook judged it: a key that hook's gate did not list does not count, nor does
   * an allow without the presence its policy asked for.
   */
  checkDecision(
    e: Pick<HubEventEnvelope, 'id' | 'type' | 'from_agent' | 'correlation_id' | 'metadata'>,
    request: Pick<HubEventEnvelope, 'id' | 'from_agent' | 'correlation_id' | 'metadata'>
  ): TrustVerdict {
    const v = this.checkSigned(e, request)
    if (!v.ok) return v
    const gate = readGateView(request.metadata)
    if (v.key && gate && !gate.keys.includes(v.key)) return { ok: false, why: `signed by a key the agent's gate did not trust (${v.key})` }
    if (e.metadata.decision === 'allow' && this.presence?.needed(request)) {
      const p = this.presence.verdict(e.id)
      if (!p?.ok) return { ok: false, why: `an allow without your presence (${p ? p.why : 'not checked'})` }
    }
    return v
  }

  /** The signature part of `checkDecision`. */
  private checkSigned(
    e: Pick<HubEventEnvelope, 'type' | 'from_agent' | 'correlation_id' | 'metadata'>,
    request: Pick<HubEventEnvelope, 'id' | 'from_agent' | 'correlation_id' | 'metadata'>
  ): TrustVerdict {
    if (e.type !== EventType.approvalDecision) return { ok: false, why: 'not a decision' }
    const m = e.metadata
    const decision = typeof m.decision === 'string' ? m.decision : ''
    const decidedBy = typeof m.decided_by === 'string' ? m.decided_by : e.from_agent
    const sig = readSignature(m[SIGNATURE])
    if (!sig && decision === 'timeout' && e.from_agent === request.from_agent) return { ok: true, key: null }
    if (!sig && decidedBy.startsWith(ALLOWLIST_DECIDER_PREFIX)) return this.checkAllowlisted(e, request)
    return this.check(
      decisionPayload({
        correlation_id: e.correlation_id ?? null,
        ack_of: typeof m[ACK_OF] === 'string' ? m[ACK_OF] : '',
        decision,
        reason: typeof m.reason === 'string' ? m.reason : '',
        decided_by: decidedBy,
        always: m.always === true
      }),
      sig && m[ACK_OF] === request.id ? sig : sig ? { ...sig, sig: '' } : null
    )
  }

  /** An allowlist decision: its rule is signed by a trusted key and allows this request. */
  private checkAllowlisted(
    e: Pick<HubEventEnvelope, 'from_agent' | 'metadata'>,
    request: Pick<HubEventEnvelope, 'from_agent' | 'metadata'>
  ): TrustVerdict {
    const r = e.metadata[SIGNED_RULE]
    if (!r || typeof r !== 'object' || Array.isArray(r)) return { ok: false, why: 'an allowlist decision without its signed rule' }
    const o = r as Record<string, unknown>
    if (typeof o.agent_pattern !== 'string' || typeof o.tool_name !== 'string' || typeof o.input_pattern !== 'string')
      return { ok: false, why: 'an allowlist decision without its signed rule' }
    const rule: RuleSpec = { agent_pattern: o.agent_pattern, tool_name: o.tool_name, input_pattern: o.input_pattern }
    const v = this.checkRule(rule, readSignature(o[SIGNATURE]))
    if (!v.ok) return { ok: false, why: `its allowlist rule is ${v.why === 'unsigned' ? 'unsigned' : `not trusted: ${v.why}`}` }
    const input = request.metadata.tool_input
    const call = {
      agent: request.from_agent,
      tool_name: textField(request.metadata, 'tool_name'),
      tool_input: (input && typeof input === 'object' && !Array.isArray(input) ? input : {}) as ToolInput
    }
    return e.metadata.decision === 'allow' && ruleMatches(rule, call)
      ? v
      : { ok: false, why: 'its allowlist rule does not allow this call' }
  }
}
