/**
 * The four hard rules of the invocation protocol for a next target `t` given the chain
 * `c0 → ... → cn` (cn is the invoker): no self-invocation, maximum depth 2, no circular calls,
 * board-meeting isolation (phase 2: no invocations; phase 3: the critic, the executive mentor,
 * may reference other roles' outputs, not invoke them). A blocked invocation is answered with
 * `[BLOCKED: cannot invoke <role> — <reason>]` and the assumption used instead.
 */
/** Why an invocation is blocked. */
export type BlockRule = 'self' | 'depth' | 'circular' | 'isolation'

/** Verdict on one invocation. */
export type InvocationVerdict = { allowed: true } | { allowed: false; rule: BlockRule; reason: string }

/** Context of an invocation. */
export interface InvocationContext {
  /** Chain so far, first caller first; the last element is the invoker. */
  chain: string[]
  /** Board-meeting phase, when the invocation happens inside one. */
  phase?: 1 | 2 | 3
  /**
   * Who invokes, when it is not the chain's last role: a protocol role is appended to the chain;
   * the critic (`executive-mentor`) only matters in phase 3.
   */
  caller?: string
}

/** Names the phase-3 critic goes by. */
const CRITIC = /^(executive[-_ ]?mentor|mentor|critic)$/i

/** True when `name` is the board meeting's critic (the executive mentor). */
export function isCritic(name: string): boolean {
  return CRITIC.test(name.trim())
}

/** The chain the rules see: `ctx.chain`, plus the caller when it is a role not already last. */
export function effectiveChain(ctx: InvocationContext): string[] {
  const chain = ctx.chain.map((c) => c.toLowerCase())
  const caller = ctx.caller?.trim().toLowerCase()
  if (caller && !isCritic(caller) && chain.at(-1) !== caller) chain.push(caller)
  return chain
}

/** Checks one invocation of `target` against the four rules. */
export function checkInvocation(target: string, ctx: InvocationContext): InvocationVerdict {
  const t = target.toLowerCase()
  const chain = effectiveChain(ctx)
  const n = chain.length - 1
  if (ctx.phase === 2) return { allowed: false, rule: 'isolation', reason: 'board-meeting phase 2 allows no invocations' }
  if (ctx.phase === 3 && (!ctx.caller || isCritic(ctx.caller))) {
    return { allowed: false, rule: 'isolation', reason: 'in phase 3 the critic may reference other roles, not invoke them' }
  }
  if (n >= 0 && chain[n] === t) return { allowed: false, rule: 'self', reason: `${t} cannot invoke itself` }
  if (n >= 2) return { allowed: false, rule: 'depth', reason: `maximum depth 2: ${[...chain, t].join(' → ')} is a third hop` }
  if (chain.includes(t)) return { allowed: false, rule: 'circular', reason: `circular call: ${t} is already in ${chain.join(' → ')}` }
  return { allowed: true }
}

/** The `[BLOCKED: ...]` line a blocked invocation answers with. */
export function blockedLine(target: string, reason: string): string {
  return `[BLOCKED: cannot invoke ${target.toLowerCase()} — ${reason}]`
}

/** The line that must follow it (the protocol wants the assumption stated explicitly). */
export const ASSUMPTION_LINE = 'State assumption used instead: <the explicit assumption you make instead>'
