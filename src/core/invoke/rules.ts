/**
 * The four hard rules of the invocation protocol for a next target `t` given the chain
 * `c0 → ... → cn`: no self-invocation, maximum depth 2, no circular calls, board-meeting
 * isolation (phase 2: no invocations; phase 3: the critic may reference, not invoke).
 */
import { isValidRole, parseInvocationTags } from './tags'

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
}

/** Checks one invocation of `target` against the four rules. */
export function checkInvocation(target: string, ctx: InvocationContext): InvocationVerdict {
  const t = target.toLowerCase()
  const chain = ctx.chain.map((c) => c.toLowerCase())
  const n = chain.length - 1
  if (ctx.phase === 2) return { allowed: false, rule: 'isolation', reason: 'board-meeting phase 2 allows no invocations' }
  if (ctx.phase === 3) return { allowed: false, rule: 'isolation', reason: 'in phase 3 the critic may reference other roles, not invoke them' }
  if (n >= 0 && chain[n] === t) return { allowed: false, rule: 'self', reason: `${t} cannot invoke itself` }
  if (n >= 2) return { allowed: false, rule: 'depth', reason: `maximum depth 2: ${[...chain, t].join(' → ')} is a third hop` }
  if (chain.includes(t)) return { allowed: false, rule: 'circular', reason: `circular call: ${t} is already in ${chain.join(' → ')}` }
  return { allowed: true }
}

/** Result of checking every INVOKE of a text against its CHAIN tag. */
export interface TextCheck {
  violations: string[]
  warnings: string[]
}

/**
 * Checks every `[INVOKE:...]` in `text`: the chain is the last `[CHAIN:...]` before it (or the
 * only one); unknown roles are warnings, rule violations are violations.
 */
export function checkText(text: string, phase?: 1 | 2 | 3): TextCheck {
  const tags = parseInvocationTags(text)
  const violations: string[] = []
  const warnings: string[] = []
  for (const inv of tags.invokes) {
    if (!isValidRole(inv.role)) warnings.push(`line ${inv.line}: unknown role '${inv.role}' in INVOKE`)
    const before = tags.chains.filter((c) => c.line <= inv.line).at(-1) ?? tags.chains[0]
    const verdict = checkInvocation(inv.role, { chain: before?.roles ?? [], phase })
    if (!verdict.allowed) violations.push(`line ${inv.line}: INVOKE:${inv.role} blocked (${verdict.rule}): ${verdict.reason}`)
  }
  for (const r of tags.responses) if (!r.closed) warnings.push(`line ${r.line}: [RESPONSE:${r.role}] has no [/RESPONSE]`)
  return { violations, warnings }
}
