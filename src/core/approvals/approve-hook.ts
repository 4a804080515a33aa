/**
 * `muster approve-hook`: one tool call of one agent, routed to the operator.
 * 1. Read the hook JSON through the harness's adapter (`harnesses/`): input no adapter can use is
 *    refused in the way that blocks the call (exit 2 or the harness's deny), nothing appended.
 * 2. Allowlist first: a matching rule allows at once; the rule's hit is counted and the call is
 *    recorded in the hub as a request plus a decision by `allowlist:<rule>`.
 * 3. Otherwise append an `approval.request` and wait for the first `approval.decision` of its
 *    thread on a live tail that starts at the request (no busy loop).
 * 4. At the timeout (or when the harness stops the hook) record a `timeout` decision and deny,
 *    unless a human decision landed first: the first decision always wins. When the harness is
 *    gone (its process ended), the timeout is recorded as `abandoned` at once.
 * A hub that cannot be reached (missing, locked, read-only, unreachable) answers `ask`, so the
 * harness shows its own prompt, and says why on stderr: never a silent allow or deny. Where nobody
 * would answer that prompt (Codex's deny-only gate for `codex exec`, Gemini CLI) it denies, with
 * the reason and the fix (`HarnessAdapter.noHub`).
 * Everything arrives through `HookContext`, built by `core/root/hook.ts`, so tests drive any `HubPort`.
 */
import { homedir } from 'node:os'
import { ruleLabel, type RuleSpec } from '../../shared/approvals/allow-rules'
import {
  ABANDONED_REASON,
  ALLOWLIST_DECIDER_PREFIX,
  DECIDED_BY_ABANDONED,
  DECIDED_BY_TIMEOUT,
  EventType,
  type ApprovalDecision
} from '../../shared/contract/hub-vocabulary'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import type { BudgetHoldInfo } from '../../shared/contract/usage-types'
import type { HubSubscription } from '../hub'
import type { AppendAndWait } from '../hub/open'
import type { AllowlistStore } from './allowlist-store'
import { decidesRequest, decisionAppend, foldApproval, newApprovalId, requestAppend, type ApprovalAsk } from './approval-events'
import type { DecisionTrust, SignatureRef } from './decision-trust'
import type { TrustVerdict } from './trust-verdict'
import type { HarnessAdapter, HarnessCall, HookVerdict } from './harnesses'
import { readHookInput } from './hook-input'
import { allowlistedReason } from './allowlist-mirror'
import { riskOf, presenceNeeded, RISK_CATEGORY_LABEL } from '../../shared/approvals/presence'
import { emptyPresence, preloadPresenceCheck, type HookPresence } from '../presence'
import { GATE, decisionPresence, inputSha256, type GateView } from './approval-presence'
import { receiptAppend, requestRef, withdraws, type ReceiptWrite } from './approval-receipts'
import { digest, dropMarker, leaveMarker, receiptsEnabled, type ReceiptMarker } from './receipt-markers'

/** Why a decided request ends as withdrawn when its harness was gone before the answer was printed. */
export const HARNESS_GONE_REASON = 'its harness went away before the answer reached it'
/** Default wait: 9 minutes, below Claude Code's own 600 s hook timeout. */
export const DEFAULT_HOOK_TIMEOUT_MS = 540_000
/** Longest wait accepted (the inbox examines a day of requests). */
export const MAX_HOOK_TIMEOUT_MS = 24 * 3600 * 1000

/** What the hook runs against. */
export interface HookContext {
  /** The hub to ask, or why it cannot be reached. */
  hub: AppendAndWait | { unreachable: string }
  /** The allowlist, or null when Muster's state DB has none. */
  rules: AllowlistStore | null
  /** The operator keys whose signed decisions count; anything else is forged and ignored. */
  trust: DecisionTrust
  /** The presence the gate enforces: policy, risky list, trusted authenticators (absent: none, a context without a home). */
  presence?: HookPresence
  /** Who requests are addressed to: the operator's id, or `'*'`. */
  operator: string
  /** A registered project holding `cwd`, if any. */
  projectFor(cwd: string | null): string | null
  /**
   * The budget holding a call of this session, agent and project for the operator (a crossed
   * budget the operator signed), or null; absent where the state DB has no budgets.
   */
  budgetHold?(call: { session_id: string | null; agent: string; project: string | null }): BudgetHoldInfo | null
  /** Where receipt markers go (Muster's home) and the hub the hook was told, as later hooks reopen it; absent: none left. */
  receipts?: { home: string; hub?: string; palace?: string }
  /** One line on stderr. */
  warn(line: string): void
}

/** The command's options. */
export interface HookOptions {
  agent: string
  project?: string
  /** `--harness`: which harness's payload to expect (default: read from the payload). */
  harness?: string
  /** `--event`: the hook event, for harnesses whose payload does not name it (Copilot CLI). */
  event?: string
  timeoutMs?: number
  /** Aborted when the harness stops the hook (SIGTERM): recorded as a timeout. */
  signal?: AbortSignal
  /** Aborted when the harness is gone (its process ended): recorded as abandoned. */
  gone?: AbortSignal
  /**
   * Aborted when the harness answered the call itself before the operator (OpenCode: `opencode
   * run` rejects every permission at once, `--auto` approves it), its `reason` the harness's
   * answer (`reject` or `allow`): recorded as abandoned, not delivered, with the harness's words.
   */
  answered?: AbortSignal
}

/** What the hook printed and how it ended. */
export interface HookRun {
  stdout: string
  exitCode: number
  /** A line for stderr (the reason of an exit 2). */
  stderr?: string
  verdict: HookVerdict | null
  /** The request's correlation id when one was appended. */
  correlation_id: string | null
  /**
   * To run once the answer is out (printed): records the `delivered` receipt and leaves the marker
   * a later hook of the session settles (`receipt-markers.ts`); never throws. Absent when nothing
   * was asked, or the request was withdrawn. `harnessGone`: the harness was gone when the answer
   * was printed, so nobody read it: recorded as withdrawn, never as delivered.
   */
  delivered?: (harnessGone?: boolean) => Promise<void>
}

const isHub = (h: HookContext['hub']): h is AppendAndWait => !('unreachable' in h)

/**
 * Waits for the first decision a trusted operator signed after the request on a live tail (a
 * forged one, or an allow without the presence the gate needs, is reported and ignored), or its
 * withdrawal (the session was interrupted or ended: that receipt is returned); null on timeout or
 * abort. Decisions are judged one after the other, in the hub's order.
 */
function waitForAnswer(
  hub: AppendAndWait,
  request: HubEventEnvelope,
  timeoutMs: number,
  ctx: Pick<HookContext, 'warn'> & { trust: DecisionTrust; judge(e: HubEventEnvelope): Promise<void> },
  signal?: AbortSignal
): Promise<HubEventEnvelope | null> {
  return new Promise((resolve) => {
    let sub: HubSubscription | null = null
    let done = false
    let queue = Promise.resolve()
    const finish = (e: HubEventEnvelope | null): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      sub?.close()
      resolve(e)
    }
    const onAbort = (): void => finish(null)
    const timer = setTimeout(() => finish(null), timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
    if (signal?.aborted) return finish(null)
    const s = hub.subscribe(
      { after_id: request.id },
      {
        events: (events) => {
          const mine = events.filter((e) => decidesRequest(e, request) || withdraws(e, request))
          if (!mine.length) return
          queue = queue.then(async () => {
            for (const e of mine) {
              if (done) return
              if (withdraws(e, request)) return finish(e)
              await ctx.judge(e)
              const v = ctx.trust.checkDecision(e, request)
              if (v.ok) return finish(e)
              ctx.warn(`muster approve-hook: ignored a forged decision ${e.id} written by ${JSON.stringify(e.from_agent)} (${v.why})`)
            }
          })
        }
      }
    )
    // the tail may deliver synchronously, before `subscribe` returned
    if (done) s.close()
    else sub = s
  })
}

/** Seconds as a person reads them: `4 s`, `1.5 s`, `540 s`. */
export function formatSeconds(ms: number): string {
  const s = ms / 1000
  return `${Number.isInteger(s) || s >= 10 ? Math.round(s) : Number(s.toFixed(1))} s`
}

/** What the model reads when nobody decided: the wait, and why it ended if not by the clock. */
export function timeoutReason(timeoutMs: number, why: string): string {
  const base = `Muster approvals: no decision within ${formatSeconds(timeoutMs)}`
  return why.trim() ? `${base} (${why.trim()})` : `${base} (timed out)`
}

/** The reason a harness shows for an operator's or a rule's decision. */
function reasonFor(d: { decision: ApprovalDecision; reason: string; decided_by: string }): string {
  const why = d.reason.trim()
  if (d.decision === 'allow') return `approved by ${d.decided_by} in Muster${why ? `: ${why}` : ''}`
  return `denied by ${d.decided_by} in Muster: ${why || 'no reason given'}`
}

/** The reason of a deny when no hub could be reached: what happened and the fix. */
export function noHubReason(why: string): string {
  return `Muster could not reach the hub (${why}), so nobody could approve this call: it is denied. Fix: \`muster gates\` names the hub this gate asks through; create or start it, or install the gate again with --hub or --palace`
}

/** The reason recorded when the harness answered a call itself (`allow` or `reject`) before the operator. */
export function answeredItselfReason(adapter: HarnessAdapter, answer: unknown): string {
  const a = answer === 'allow' ? 'allow' : 'reject'
  const why = adapter.answeredItself?.(a) ?? `${adapter.label} ${a === 'allow' ? 'approved it itself' : 'rejected it itself'}`
  return `not delivered: ${why}; nothing is waiting for your decision`
}

/** The request a tool call makes (its project: `--project`, else the registered project holding its cwd, else the cwd's folder name). */
export function askFor(
  call: HarnessCall,
  opts: Pick<HookOptions, 'agent' | 'project' | 'timeoutMs'>,
  ctx: Pick<HookContext, 'operator' | 'projectFor'>
): ApprovalAsk {
  return {
    agent: opts.agent,
    project: opts.project ?? ctx.projectFor(call.cwd) ?? lastSegment(call.cwd) ?? 'unknown',
    to_agent: ctx.operator,
    harness: call.harness,
    hook_event_name: call.event,
    session_id: call.session_id,
    cwd: call.cwd,
    tool_use_id: call.tool_use_id,
    tool_name: call.tool_name,
    tool_input: call.tool_input,
    timeout_ms: opts.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    ...(call.provenance ? { provenance: call.provenance } : {}),
    ...(call.extra ? { extra: call.extra } : {}),
    ...(call.harness_always ? { harness_always: call.harness_always } : {})
  }
}

/** A rule that allowed a call: its id, patterns and the operator's signature (carried by the decision). */
export type AllowingRule = RuleSpec & { id: number; signature: SignatureRef | null }

/**
 * Records a call an allowlist rule allowed: the rule's hit is counted, and the hub gets the
 * request plus a decision by `allowlist:<rule>` carrying the signed rule. Failures are warned,
 * never thrown (the call is allowed either way). Returns the request, if appended.
 */
export async function recordAllowlisted(
  ctx: Pick<HookContext, 'hub' | 'rules' | 'warn'>,
  ask: ApprovalAsk,
  rule: AllowingRule
): Promise<HubEventEnvelope | null> {
  const label = ruleLabel(rule)
  const hub = ctx.hub
  try {
    ctx.rules?.recordHit(rule.id, new Date(), rule)
  } catch (err) {
    ctx.warn(`muster approve-hook: allowlist rule #${rule.id} matched, but its hit was not counted: ${(err as Error).message}`)
  }
  try {
    if (!isHub(hub)) throw new Error(hub.unreachable)
    const request = await appendRequest(hub, ask)
    await hub.append(
      decisionAppend(
        request,
        {
          decision: 'allow',
          reason: `matched allowlist rule ${label}`,
          decided_by: `${ALLOWLIST_DECIDER_PREFIX}${label}`,
          from_agent: ask.agent
        },
        { rule }
      )
    )
    return request
  } catch (err) {
    ctx.warn(`muster approve-hook: allowed by allowlist rule ${label}, but not recorded in the hub: ${(err as Error).message}`)
    return null
  }
}

/** Runs the hook on its stdin text. */
export async function runApproveHook(stdin: string, opts: HookOptions, ctx: HookContext): Promise<HookRun> {
  const read = readHookInput(stdin, { harness: opts.harness, event: opts.event })
  if (!read.ok) {
    if (!read.reply.stderr) ctx.warn(read.reason)
    return { ...read.reply, verdict: null, correlation_id: null }
  }
  const { adapter, call } = read
  const timeoutMs = opts.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS
  const answer = (verdict: HookVerdict, reason: string, correlation_id: string | null = null, always = false): HookRun => ({
    ...adapter.answer(call, verdict, reason, { always }),
    verdict,
    correlation_id
  })
  const ask = askFor(call, opts, ctx)
  const hub = ctx.hub
  const toMatch = {
    agent: ask.agent,
    tool_name: ask.tool_name,
    tool_input: ask.tool_input,
    cwd: ask.cwd,
    home: homedir(),
    provenance: ask.provenance ?? null
  }
  const { policy, risky, credentials } = ctx.presence?.config ?? emptyPresence()
  const needsPresence = presenceNeeded(policy, toMatch, risky)
  const risk = policy === 'risky' && needsPresence ? riskOf(toMatch, risky) : null
  const gate: GateView = {
    keys: [...ctx.trust.keys],
    presence: policy,
    presence_required: needsPresence,
    risk: risk ? `${RISK_CATEGORY_LABEL[risk.category]}: ${risk.pattern}` : null,
    authenticators: credentials.length,
    managed: ctx.presence?.managed === true
  }

  // a call that needs the operator's presence is never answered by a rule (rules carry no presence)
  const rule = needsPresence ? null : (ctx.rules?.firstMatch(toMatch) ?? null)
  // an over-budget session's calls wait for the operator, allowlisted ones included (the budget is
  // shown on the request); budgets that cannot be read leave no call to the allowlist either
  let hold: BudgetHoldInfo | null = null
  let unsure = false
  try {
    hold = ctx.budgetHold?.({ session_id: call.session_id, agent: opts.agent, project: ask.project }) ?? null
  } catch (err) {
    unsure = true
    ctx.warn(`muster approve-hook: the budgets could not be checked (${(err as Error).message}); the call waits for the operator`)
  }
  if (hold) ask.budget = { ...hold, rule_id: rule?.id ?? null }
  if (!rule && !needsPresence) {
    // a rule that reads as if it allowed the call, but its wildcard would cover a dangerous argument: say why
    const why = ctx.rules?.declinedBy(toMatch) ?? null
    if (why) ask.rule_declined = why
  }
  if (!hold && rule && !unsure) {
    const request = await recordAllowlisted(ctx, ask, rule)
    if (!request) return answer('allow', allowlistedReason(rule))
    return {
      ...answer('allow', allowlistedReason(rule), request.correlation_id),
      delivered: markerKeeper(ctx, call, ask, request).delivered('allow')
    }
  }

  const unreachable = (why: string): HookRun => {
    if (adapter.noHub?.(call.event) === 'deny') {
      ctx.warn(`muster approve-hook: cannot ask the operator (${why}); the call is denied`)
      return answer('deny', noHubReason(why))
    }
    ctx.warn(`muster approve-hook: cannot ask the operator (${why}); the harness asks instead`)
    return answer('ask', `Muster could not reach the hub: ${why}`)
  }
  if (!isHub(hub)) return unreachable(hub.unreachable)
  let request: HubEventEnvelope
  try {
    const status = await hub.status()
    if (!status.exists) return unreachable(status.offline_reason ?? `no hub at ${hub.label}`)
    // a hub server that does not answer (its mirror may still exist here): ask now, not after more timeouts
    if (!status.online) return unreachable(status.offline_reason ?? `hub ${hub.label} is offline`)
    if (status.read_only) return unreachable(`hub ${hub.label} is read-only (${status.read_only_reason})`)
    request = await appendRequest(hub, ask, gate)
  } catch (err) {
    return unreachable((err as Error).message)
  }

  // presence is judged once per decision, with the full input's hash (the request may hold a cut one)
  const verdicts = new Map<string, TrustVerdict>()
  const fullInputSha = inputSha256(call.tool_input)
  const trust = ctx.trust.withPresence({ needed: () => needsPresence, verdict: (id) => verdicts.get(id) })
  const judge = async (e: HubEventEnvelope): Promise<void> => {
    if (!needsPresence || verdicts.has(e.id) || e.metadata.decision !== 'allow') return
    verdicts.set(e.id, await decisionPresence(e, request, fullInputSha, credentials))
  }
  // the operator takes seconds at least: load the verifier meanwhile, not after the decision
  if (needsPresence) void preloadPresenceCheck()
  const stop = anySignal([opts.signal, opts.gone, opts.answered])
  const marks = markerKeeper(ctx, call, ask, request)
  marks.waiting()
  const first = await waitForAnswer(hub, request, timeoutMs, { warn: ctx.warn, trust, judge }, stop)
  if (first && withdraws(first, request)) {
    // the session hook took the marker and recorded the withdrawal: nobody waits for this answer
    const why = typeof first.metadata.reason === 'string' && first.metadata.reason ? first.metadata.reason : 'the session ended'
    return answer('deny', `Muster approvals: the request was withdrawn (${why})`, request.correlation_id)
  }
  let decisions: HubEventEnvelope[] = first ? [first] : []
  if (!first) {
    // the harness answered it itself: nobody receives the operator's decision any more
    const itself = opts.answered?.aborted === true ? answeredItselfReason(adapter, opts.answered.reason) : null
    const gone = opts.gone?.aborted === true || itself !== null
    const ending = itself ?? (gone ? ABANDONED_REASON : opts.signal?.aborted ? 'the harness stopped the hook before a decision' : '')
    /** Records the timeout (or abandonment); the thread's decisions after it (a human one just before ours wins). */
    const appendTimeout = async (): Promise<HubEventEnvelope[]> => {
      const mine = await hub.append(
        decisionAppend(request, {
          decision: 'timeout',
          reason: ending || `no decision within ${formatSeconds(timeoutMs)}`,
          decided_by: gone ? DECIDED_BY_ABANDONED : DECIDED_BY_TIMEOUT,
          from_agent: ask.agent
        })
      )
      const thread = await hub.list({ correlation_id: request.correlation_id!, type: EventType.approvalDecision, order: 'asc', limit: 50 })
      const all = thread.events.length ? thread.events : [mine]
      for (const e of all) if (decidesRequest(e, request)) await judge(e)
      return all
    }
    try {
      // a decision that landed while the wait was stopping wins: nothing more is appended (a
      // timeout beside it would stand in the thread as a second decision)
      const landed = (
        await hub.list({ correlation_id: request.correlation_id!, type: EventType.approvalDecision, order: 'asc', limit: 50 })
      ).events.filter((e) => decidesRequest(e, request))
      for (const e of landed) await judge(e)
      if (landed.length && foldApproval(request, landed, { hub: hub.location, palace: hub.location }, trust).decision) decisions = landed
      else decisions = await appendTimeout()
    } catch (err) {
      ctx.warn(`muster approve-hook: timed out, and the timeout could not be recorded: ${(err as Error).message}`)
      return answer('deny', timeoutReason(timeoutMs, ending), request.correlation_id)
    }
  }
  const folded = foldApproval(request, decisions, { hub: hub.location, palace: hub.location }, trust)
  const d = folded.decision!
  const reason =
    d.decision === 'timeout'
      ? timeoutReason(timeoutMs, d.reason === `no decision within ${formatSeconds(timeoutMs)}` ? '' : d.reason)
      : reasonFor(d)
  // a call that needs presence leaves the harness no lasting grant: its next one must come back here
  const always = d.decision === 'allow' && d.always === true && !needsPresence
  const verdict = d.decision === 'allow' ? 'allow' : 'deny'
  const out = answer(verdict, reason, request.correlation_id, always)
  // an abandoned request's answer reaches nobody: not delivered, and nothing of it will run
  if (folded.state === 'abandoned') return { ...out, delivered: marks.drop }
  return { ...out, delivered: marks.delivered(verdict) }
}

/**
 * A request's receipt side: the `waiting` marker while the operator decides, then, once the
 * answer is out, the `delivered` receipt in the hub and the allow's marker (a deny's is removed:
 * nothing of it runs). Markers only where the harness's receipt hooks are installed.
 */
function markerKeeper(
  ctx: Pick<HookContext, 'hub' | 'receipts' | 'warn'>,
  call: HarnessCall,
  ask: ApprovalAsk,
  request: Pick<HubEventEnvelope, 'id' | 'correlation_id' | 'stream' | 'from_agent'>
): { waiting(): void; delivered(verdict: 'allow' | 'deny'): (harnessGone?: boolean) => Promise<void>; drop(): Promise<void> } {
  const ref = requestRef(request)
  const where = ctx.receipts
  const session = call.session_id
  const on = !!where && !!session && receiptsEnabled(where.home, call.harness)
  const leave = (state: ReceiptMarker['state']): void => {
    if (!on) return
    try {
      leaveMarker(where!.home, call.harness, session!, {
        ...(where!.hub ? { hub: where!.hub } : {}),
        ...(where!.palace ? { palace: where!.palace } : {}),
        request: ref,
        tool_name: call.tool_name,
        digest: digest(call.tool_name, call.tool_input),
        tool_use_id: call.tool_use_id,
        state,
        at: new Date().toISOString()
      })
    } catch (err) {
      ctx.warn(
        `muster approve-hook: no receipt marker for ${ref.correlation_id} (${(err as Error).message}); its outcome will not be recorded`
      )
    }
  }
  const drop = (): void => {
    if (on) dropMarker(where!.home, call.harness, session!, { tool_use_id: call.tool_use_id, request: ref })
  }
  return {
    waiting: () => leave('waiting'),
    drop: async () => drop(),
    delivered:
      (verdict) =>
      async (harnessGone = false) => {
        // the harness went away before it could read the answer: nothing of it runs, and no later
        // event of the harness will say so, so the request ends here as withdrawn, not delivered
        if (verdict === 'allow' && !harnessGone) leave('allow')
        else drop()
        const hub = ctx.hub
        if (!isHub(hub)) return
        const receipt: ReceiptWrite = harnessGone
          ? { stage: 'withdrawn', hook_event: 'approve-hook', from_agent: ask.agent, reason: HARNESS_GONE_REASON, verdict }
          : { stage: 'delivered', hook_event: call.event, from_agent: ask.agent, verdict, tool_use_id: call.tool_use_id }
        try {
          await hub.append(receiptAppend(ref, receipt))
        } catch (err) {
          ctx.warn(`muster approve-hook: the ${receipt.stage} receipt of the answer was not recorded: ${(err as Error).message}`)
        }
      }
  }
}

/** One signal aborted when any of `signals` is. */
function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const list = signals.filter((s): s is AbortSignal => !!s)
  if (list.length <= 1) return list[0]
  const c = new AbortController()
  for (const s of list) {
    if (s.aborted) c.abort()
    else s.addEventListener('abort', () => c.abort(), { once: true })
  }
  return c.signal
}

/** Appends the request with a fresh correlation id (and the gate's view); a too-large input is kept whole in an artifact. */
async function appendRequest(hub: AppendAndWait, ask: ApprovalAsk, gate?: GateView): Promise<HubEventEnvelope> {
  const { append, truncated } = requestAppend(ask, newApprovalId())
  if (gate) append.metadata = { ...append.metadata, [GATE]: gate }
  if (truncated) {
    const full = JSON.stringify(ask.tool_input)
    if (Buffer.byteLength(full, 'utf8') <= 4 * 1024 * 1024) {
      const art = await hub.putArtifact({ kind: 'json', content: full, created_by: ask.agent, metadata: { tool_name: ask.tool_name } })
      append.artifact_ids = [art.id]
    }
  }
  return hub.append(append)
}

function lastSegment(cwd: string | null): string | null {
  const seg = cwd?.split(/[\\/]/).filter(Boolean).pop()
  return seg ?? null
}
