/**
 * The operator's side of approvals: one inbox across every known hub (registered ones and
 * MemPalace's default when it exists), decisions written as the operator through the hub
 * service, and the allowlist. A decision is always appended (nothing is lost); if another
 * decision was first, the answer says so and the inbox shows this one as a conflict.
 */
import { ApiError } from '../../shared/api-error'
import { unreadableInput } from '../../shared/approvals/tool-call'
import type { ApprovalItem } from '../../shared/contract/approvals-types'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { ABANDONED_REASON, APPROVAL_ID_RE, EventType, type ApprovalDecision } from '../../shared/contract/hub-vocabulary'
import type { HubSelection, HubService } from '../hub'
import { decisionAppend, foldApproval } from './approval-events'
import { listHubApprovals } from './approval-list'
import type { AllowlistStore, RuleKeys } from './allowlist-store'
import { MAX_SNOOZE_MINUTES, type SnoozeStore } from './snooze-store'
import { challengeFor, readProof, signers, verifyPresence, type PresenceConfig, type PresenceProof } from '../presence'
import { decisionPresenceText, readGateView } from './approval-presence'
import { PresenceJudge } from './presence-judge'

/** Default number of decided requests in the history. */
export const DEFAULT_HISTORY = 200

/** What the approvals service needs. */
export interface ApprovalsServiceOptions {
  hubs: HubService
  rules: AllowlistStore
  /** The operator's agent id now. */
  operator(): string
  /** The operator's key (signs every decision) and the keys whose decisions count. */
  keys: Required<RuleKeys>
  /** Snoozed requests ("Not now"); without it nothing is ever snoozed. */
  snoozes?: SnoozeStore
  /** This home's presence settings (policy, risky list, authenticators); without it, presence is off. */
  presence?: () => PresenceConfig
}

/** The result of one decision. */
export interface DecideResult {
  item: ApprovalItem
  outcome: 'decided' | 'conflict'
  event: HubEventEnvelope
}

/** Why nobody waits for an abandoned request: the hook's own words, shortened for the usual one. */
function abandonedWhy(reason: string | undefined): string {
  return !reason || reason === ABANDONED_REASON ? 'its harness went away before a decision' : reason
}

/** Pending requests counted per signature, so each item knows how many identical ones wait. */
function markIdentical(pending: ApprovalItem[]): ApprovalItem[] {
  const counts = new Map<string, number>()
  for (const p of pending) counts.set(p.signature, (counts.get(p.signature) ?? 0) + 1)
  return pending.map((p) => ({ ...p, identical: counts.get(p.signature) ?? 1 }))
}

/** The approvals inbox and its allowlist. */
export class ApprovalsService {
  private readonly judge: PresenceJudge

  constructor(private readonly opts: ApprovalsServiceOptions) {
    this.judge = new PresenceJudge(opts.presence ?? (() => ({ policy: 'off', risky: [], credentials: [], changed_at: null })))
  }

  get rules(): AllowlistStore {
    return this.opts.rules
  }

  /** The hubs to read: the selected one, or every registered hub plus the default if its file exists. */
  private async targets(sel: HubSelection): Promise<HubSelection[]> {
    if (sel.hub || sel.palace) return [sel]
    const { hubs, default: def } = await this.opts.hubs.listHubs()
    const out: HubSelection[] = hubs.map((h) => ({ hub: h.name }))
    if (!def.registered && def.exists) out.push({ palace: def.palace })
    return out
  }

  /** Pending (oldest first) and decided (newest first, at most `historyLimit`) requests. */
  async list(sel: HubSelection & { history_limit?: number }) {
    const now = Date.now()
    const trust = this.opts.keys.trust()
    const results = await Promise.all(
      (await this.targets(sel)).map(async (t) => {
        let ref = { hub: t.hub ?? t.palace ?? '', palace: t.palace ?? '' }
        try {
          const chosen = this.opts.hubs.chooseToRead(t)
          ref = { hub: chosen.name, palace: chosen.location }
          return { ref, ok: true, error: null, ...(await listHubApprovals(chosen.hub, ref, trust, now, this.judge)) }
        } catch (err) {
          return { ref, ok: false, error: (err as Error).message, pending: [], decided: [] }
        }
      })
    )
    const snoozed = this.opts.snoozes?.active(new Date(now)) ?? new Map<string, string>()
    const pending = markIdentical(
      results
        .flatMap((r) => r.pending)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.seq - b.seq)
        .map((p) => ({ ...p, snoozed_until: snoozed.get(p.correlation_id) ?? null }))
    )
    const history = results
      .flatMap((r) => r.decided)
      .sort((a, b) => (b.decision?.created_at ?? b.created_at).localeCompare(a.decision?.created_at ?? a.created_at) || b.seq - a.seq)
      .slice(0, sel.history_limit ?? DEFAULT_HISTORY)
    return { operator: this.opts.operator(), pending, history, hubs: results.map((r) => ({ ...r.ref, ok: r.ok, error: r.error })) }
  }

  /** The request an id names in a hub: its event id, or its `appr_` correlation id. */
  private async request(sel: HubSelection, id: string): Promise<HubEventEnvelope> {
    const { hub } = this.opts.hubs.chooseToRead(sel)
    if (APPROVAL_ID_RE.test(id)) {
      const page = await hub.list({ correlation_id: id, type: EventType.approvalRequest, order: 'asc', limit: 1 })
      if (page.events[0]) return page.events[0]
      throw new ApiError(`no approval request with correlation id '${id}'`, 'not_found')
    }
    const event = await hub.get(id)
    if (!event) throw new ApiError(`event '${id}' not found`, 'not_found')
    if (event.type !== EventType.approvalRequest)
      throw new ApiError(`event '${id}' is a ${event.type}, not an ${EventType.approvalRequest}`, 'invalid_input')
    return event
  }

  /**
   * Allows or denies a request as the operator; reports whether this decision was the first. A
   * request nobody waits for any more (timed out, abandoned by its harness, withdrawn by its
   * session, or expired) is refused
   * and nothing is appended: a decision nobody receives is never recorded.
   */
  async decide(
    sel: HubSelection & { id: string; decision: ApprovalDecision; reason?: string; always?: boolean; presence?: PresenceProof }
  ): Promise<DecideResult> {
    const request = await this.request(sel, sel.id)
    // a decision the agent's gate would ignore is refused here, and nothing is recorded
    const signer = this.opts.keys.signer()
    const gate = readGateView(request.metadata)
    if (gate && !gate.keys.includes(signer.key))
      throw new ApiError(
        `the gate of ${request.from_agent} does not trust this Muster's key (${signer.key}), so your decision would be ignored and was not recorded; on the agent's machine: muster keys trust ${signer.key}`,
        'forbidden'
      )
    const withPresence = sel.decision === 'allow' ? await this.checkPresence(sel, request) : null
    const me = this.opts.operator()
    const before = await this.thread(sel, request)
    if (before.state === 'timeout' || before.state === 'abandoned' || before.state === 'expired' || before.state === 'withdrawn') {
      const withdrawal = before.receipts?.find((r) => r.stage === 'withdrawn')
      const why =
        before.state === 'abandoned'
          ? abandonedWhy(before.decision?.reason)
          : before.state === 'withdrawn'
            ? `it was withdrawn (${withdrawal?.hook_event || 'its session ended'}${withdrawal?.reason ? `: ${withdrawal.reason}` : ''})`
            : before.state === 'timeout'
              ? `its hook stopped waiting (${before.decision?.reason || 'timed out'})`
              : 'its hook stopped waiting long ago'
      throw new ApiError(
        `no agent is waiting for ${request.correlation_id ?? request.id}: ${why}; your decision was not recorded`,
        'conflict'
      )
    }
    // an "always" grant can never be broader than what the operator saw
    const unreadable = sel.always ? unreadableInput(before.tool_name, before.tool_input) : null
    if (unreadable)
      throw new ApiError(
        `cannot always allow ${before.tool_name}: the request is ${unreadable}, so no grant could be as narrow as what you saw; allow it once instead`,
        'invalid_input'
      )
    const {
      hub: hubName,
      palace,
      event
    } = await this.opts.hubs.append({
      ...(sel.hub ? { hub: sel.hub } : sel.palace ? { palace: sel.palace } : {}),
      ...decisionAppend(
        request,
        { decision: sel.decision, reason: sel.reason ?? '', decided_by: me, from_agent: me, always: sel.always },
        { signer, ...(withPresence ? { presence: withPresence } : {}) }
      )
    })
    const item = await this.thread(sel, request, { hub: hubName, palace })
    return { item, outcome: item.decision?.id === event.id ? 'decided' : 'conflict', event }
  }

  /**
   * What an allow of a request needs signed with presence (see the contract's
   * `approvals.presenceChallenge`): whether it is needed, why, and the challenge.
   */
  async presenceChallenge(sel: HubSelection & { id: string; decision: 'allow' | 'deny'; always?: boolean }) {
    const request = await this.request(sel, sel.id)
    const need = this.judge.need(request)
    const sha = await this.judge.inputSha(this.opts.hubs.choose(sel).hub, request)
    if (sha === null)
      throw new ApiError(
        `the full input of ${request.correlation_id ?? request.id} cannot be read: it can be denied, not approved`,
        'conflict'
      )
    const text = decisionPresenceText(request, sha, sel.decision, sel.decision === 'allow' && sel.always === true)
    const credentials = this.opts.presence?.().credentials ?? []
    return {
      needed: need.needed,
      risk: need.risk,
      input_sha256: sha,
      text,
      challenge: challengeFor(text),
      credentials: signers(credentials)
    }
  }

  /**
   * The proof an allow carries: none where presence is not needed; where it is, the one given,
   * checked now against this home's authenticators (the hook checks it again against its gate's),
   * else a refusal saying how to approve.
   */
  private async checkPresence(
    sel: HubSelection & { presence?: PresenceProof; always?: boolean },
    request: HubEventEnvelope
  ): Promise<PresenceProof | null> {
    if (!this.judge.need(request).needed) return null
    const credentials = this.opts.presence?.().credentials ?? []
    if (!sel.presence) {
      throw new ApiError(
        credentials.length
          ? `${request.correlation_id ?? request.id} needs your presence: approve it with an enrolled authenticator (the Approvals screen, or the link muster approvals decide prints)`
          : `${request.correlation_id ?? request.id} needs your presence, and no authenticator is enrolled here: deny it, or enrol one (muster presence enroll)`,
        'forbidden'
      )
    }
    const sha = await this.judge.inputSha(this.opts.hubs.choose(sel).hub, request)
    if (sha === null) throw new ApiError('the full input of this request cannot be read: it can be denied, not approved', 'conflict')
    const v = await verifyPresence(readProof(sel.presence), decisionPresenceText(request, sha, 'allow', sel.always === true), credentials)
    if (!v.ok) throw new ApiError(`presence not confirmed: ${v.why}`, 'forbidden')
    return sel.presence
  }

  /**
   * "Not now": hides a pending request from the inbox and the needs-you queue for `minutes`
   * without deciding it (the agent keeps waiting); 0 wakes it now. Only a pending request can be
   * snoozed: one that is decided, or that nobody waits for, is refused.
   */
  async snooze(sel: HubSelection & { id: string; minutes: number }): Promise<{ item: ApprovalItem }> {
    const store = this.opts.snoozes
    if (!store) throw new ApiError('snoozing needs Muster’s state DB', 'internal')
    if (!Number.isInteger(sel.minutes) || sel.minutes < 0 || sel.minutes > MAX_SNOOZE_MINUTES)
      throw new ApiError(`minutes must be a whole number from 0 to ${MAX_SNOOZE_MINUTES}`, 'invalid_input')
    const request = await this.request(sel, sel.id)
    const item = await this.thread(sel, request)
    if (sel.minutes === 0) {
      store.wake(item.correlation_id)
      return { item: { ...item, snoozed_until: null } }
    }
    if (item.state !== 'pending')
      throw new ApiError(`${item.correlation_id} is not pending (${item.state}): there is nothing to snooze`, 'conflict')
    const until = new Date(Date.now() + sel.minutes * 60_000)
    store.snooze(item.correlation_id, until)
    return { item: { ...item, snoozed_until: until.toISOString() } }
  }

  /** A request folded with its thread's decisions as they stand. */
  private async thread(sel: HubSelection, request: HubEventEnvelope, where?: { hub: string; palace: string }): Promise<ApprovalItem> {
    const chosen = this.opts.hubs.choose(sel)
    const thread = await chosen.hub.list({
      correlation_id: request.correlation_id ?? request.id,
      type: [EventType.approvalDecision, EventType.approvalReceipt],
      order: 'asc',
      limit: 500
    })
    const oracle = await this.judge.oracle(chosen.hub, [{ request, decisions: thread.events }])
    return foldApproval(
      request,
      thread.events,
      where ?? { hub: chosen.name, palace: chosen.location },
      this.opts.keys.trust().withPresence(oracle)
    )
  }
}
