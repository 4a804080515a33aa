/**
 * The inbox's side of presence: which requests need the operator's presence for an allow (what
 * the agent's gate recorded on the request, else this home's policy), the SHA-256 of a request's
 * full input (from the attached artifact when the request holds a cut one), and the checked
 * verdicts on allow decisions' proofs, kept per decision event (a proof never changes).
 */
import { presenceNeeded, riskOf, RISK_CATEGORY_LABEL } from '../../shared/approvals/presence'
import type { ToolInput } from '../../shared/approvals/tool-call'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import type { HubPort } from '../hub'
import type { PresenceConfig } from '../presence'
import { decisionPresence, inputSha256, readGateView } from './approval-presence'
import type { PresenceOracle } from './decision-trust'
import type { TrustVerdict } from './trust-verdict'

/** Verdicts kept at most (the newest replace the oldest). */
const KEPT = 5_000

/** What a request needs: presence or not, and the risky entry that asks for it. */
export interface PresenceNeed {
  needed: boolean
  risk: string | null
}

/** Judges presence for one home's inbox. */
export class PresenceJudge {
  private readonly verdicts = new Map<string, TrustVerdict>()

  constructor(private readonly config: () => PresenceConfig) {}

  /** What an allow of `request` needs: its gate's word, else this home's policy. */
  need(request: Pick<HubEventEnvelope, 'from_agent' | 'metadata'>): PresenceNeed {
    const gate = readGateView(request.metadata)
    if (gate) return { needed: gate.presence_required, risk: gate.risk }
    const { policy, risky } = this.config()
    const m = request.metadata
    const input = m.tool_input && typeof m.tool_input === 'object' && !Array.isArray(m.tool_input) ? (m.tool_input as ToolInput) : {}
    const call = {
      agent: request.from_agent,
      tool_name: typeof m.tool_name === 'string' ? m.tool_name : '',
      tool_input: input,
      cwd: typeof m.cwd === 'string' ? m.cwd : null,
      home: null
    }
    const needed = presenceNeeded(policy, call, risky)
    const r = needed && policy === 'risky' ? riskOf(call, risky) : null
    return { needed, risk: r ? `${RISK_CATEGORY_LABEL[r.category]}: ${r.pattern}` : null }
  }

  /** The SHA-256 of a request's full input: its own, or the artifact holding the whole of a cut one; null when neither can be read. */
  async inputSha(hub: Pick<HubPort, 'getArtifact'>, request: Pick<HubEventEnvelope, 'metadata' | 'artifact_ids'>): Promise<string | null> {
    const m = request.metadata
    if (m.tool_input_truncated !== true) {
      const input = m.tool_input && typeof m.tool_input === 'object' && !Array.isArray(m.tool_input) ? (m.tool_input as ToolInput) : {}
      return inputSha256(input)
    }
    const id = request.artifact_ids?.[0]
    if (!id) return null
    try {
      const art = await hub.getArtifact(id)
      if (!art) return null
      const full = JSON.parse(art.content) as unknown
      return full && typeof full === 'object' && !Array.isArray(full) ? inputSha256(full as ToolInput) : null
    } catch {
      return null
    }
  }

  /**
   * Checks the proofs of the allow decisions among `decisions` that a request needing presence
   * has (each once), and returns the oracle a fold judges them with.
   */
  async oracle(
    hub: Pick<HubPort, 'getArtifact'>,
    threads: readonly { request: HubEventEnvelope; decisions: readonly HubEventEnvelope[] }[]
  ): Promise<PresenceOracle> {
    const { credentials } = this.config()
    for (const { request, decisions } of threads) {
      if (!this.need(request).needed) continue
      const todo = decisions.filter((d) => d.metadata.decision === 'allow' && !this.verdicts.has(d.id))
      if (!todo.length) continue
      const sha = await this.inputSha(hub, request)
      for (const d of todo) {
        const v: TrustVerdict = sha
          ? await decisionPresence(d, request, sha, credentials)
          : { ok: false, why: 'the full input cannot be read' }
        this.verdicts.set(d.id, v)
        if (this.verdicts.size > KEPT) this.verdicts.delete(this.verdicts.keys().next().value!)
      }
    }
    return {
      needed: (request) => this.need(request).needed,
      risk: (request) => this.need(request).risk,
      verdict: (id) => this.verdicts.get(id)
    }
  }
}
