/**
 * The operator's budgets (state DB, migration 11) and what they hold. A budget caps one session
 * (all of it), one agent's or one project's usage today, or the whole fleet's today, in tokens or
 * in estimated dollars. Like allowlist rules, every budget is signed with the operator's key when
 * saved, and so is every "let this session go on" (a release): an agent cannot raise, replace or
 * release its own budget through the state DB, since a row no trusted key signed holds and
 * releases nothing (an unsigned budget is shown as such and gates nothing; an unsigned release is
 * ignored). A crossed budget holds every tool call of the sessions it covers until the operator
 * raises it or releases the session. No zod: the hook loads this.
 */
import { ApiError } from '../../shared/api-error'
import type { BudgetScope } from '../../shared/contract/usage-types'
import { addTokens, totalTokens, zeroTokens, type TokenCounts } from '../../shared/contract/tokens'
import { readSignature, type DecisionSigner, type DecisionTrust, type SignatureRef } from '../approvals'
import type { Db } from '../sqlite'
import type { Prices } from './prices'

/** A budget as stored. */
export interface BudgetRow {
  id: number
  scope: BudgetScope
  target: string
  tokens: number | null
  usd: number | null
  created_at: string
  updated_at: string
  signature: string | null
}

/** What a budget is: its scope, target and limit. */
export interface BudgetSpec {
  scope: BudgetScope
  target: string
  tokens: number | null
  usd: number | null
}

/** A budget with whether a trusted operator signed it. */
export interface CheckedBudget extends BudgetRow {
  trusted: boolean
  untrusted_reason: string | null
}

/** The operator keys budgets are signed with and checked against (the hook's has no signer). */
export interface BudgetKeys {
  trust(): DecisionTrust
  signer?(): DecisionSigner
}

/** The text a budget's signature is made over. */
export function budgetPayload(b: BudgetSpec): string {
  return JSON.stringify(['muster.budget/1', b.scope, b.target, b.tokens, b.usd])
}

/** The text a release's signature is made over: the budget as it was released, and the session. */
export function releasePayload(b: BudgetSpec & { id: number }, sessionId: string): string {
  return JSON.stringify(['muster.budget-release/1', b.id, b.scope, b.target, b.tokens, b.usd, sessionId])
}

function parseSig(text: string | null): SignatureRef | null {
  if (!text) return null
  try {
    return readSignature(JSON.parse(text))
  } catch {
    return null
  }
}

/** Largest token budget (beyond it a number loses precision). */
const MAX_TOKENS = Number.MAX_SAFE_INTEGER
/** Largest dollar budget. */
const MAX_USD = 10_000_000

/** True when `s` holds a control character (a target is one line of text). */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

/** Why a budget cannot be saved, or null. */
export function budgetProblem(b: BudgetSpec): string | null {
  if ((b.tokens === null) === (b.usd === null)) return 'give a budget in tokens or in dollars (one of them)'
  if (b.tokens !== null && (!Number.isSafeInteger(b.tokens) || b.tokens < 1 || b.tokens > MAX_TOKENS))
    return 'tokens must be a whole number of at least 1'
  if (b.usd !== null && (!Number.isFinite(b.usd) || b.usd <= 0 || b.usd > MAX_USD)) return `dollars must be above 0 and at most ${MAX_USD}`
  if (b.scope === 'day' ? b.target !== '' : !b.target.trim() || b.target.length > 256 || hasControl(b.target))
    return b.scope === 'day' ? 'a budget for the day names no target' : `a ${b.scope} budget names its ${b.scope} (a single line)`
  return null
}

/** How a budget reads: `session 36009991…: 40,000 tokens`, `agent mac-claude today: $5.00`. */
export function budgetLabel(b: BudgetSpec): string {
  const limit = b.tokens !== null ? `${b.tokens.toLocaleString('en-US')} tokens` : `$${b.usd!.toFixed(2)} (estimate)`
  const what =
    b.scope === 'session'
      ? `session ${b.target.length > 12 ? `${b.target.slice(0, 12)}…` : b.target}`
      : b.scope === 'day'
        ? 'the fleet today'
        : `${b.scope} ${b.target} today`
  return `${what}: ${limit}`
}

/** Budgets and releases of one state DB. */
export class BudgetStore {
  constructor(
    private readonly db: Db,
    private readonly keys: BudgetKeys
  ) {}

  /** True when the DB has the budget tables. */
  static available(db: Db): boolean {
    return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage_budgets'").get()
  }

  /** Every budget, oldest first, with whether a trusted operator signed it. */
  list(): CheckedBudget[] {
    const trust = this.keys.trust()
    return (this.db.prepare('SELECT * FROM usage_budgets ORDER BY id').all() as BudgetRow[]).map((b) => {
      const v = trust.check(budgetPayload(b), parseSig(b.signature))
      return { ...b, trusted: v.ok, untrusted_reason: v.ok ? null : v.why }
    })
  }

  /** One budget, or not_found. */
  get(id: number): CheckedBudget {
    const b = this.list().find((x) => x.id === id)
    if (!b) throw new ApiError(`no budget #${id}`, 'not_found')
    return b
  }

  /** Sets the budget of a scope and target (a new one, or the one it replaces); its releases go. */
  set(spec: BudgetSpec, at = new Date()): CheckedBudget {
    const b = { ...spec, target: spec.scope === 'day' ? '' : spec.target.trim() }
    const problem = budgetProblem(b)
    if (problem) throw new ApiError(`invalid budget: ${problem}`, 'invalid_input')
    if (!this.keys.signer) throw new ApiError('this process cannot sign budgets', 'conflict')
    const signature = JSON.stringify(this.keys.signer().sign(budgetPayload(b)))
    const now = at.toISOString()
    const id = this.db
      .transaction((): number => {
        const held = this.db.prepare('SELECT id FROM usage_budgets WHERE scope = ? AND target = ?').get(b.scope, b.target) as
          { id: number } | undefined
        if (held) {
          this.db
            .prepare('UPDATE usage_budgets SET tokens = ?, usd = ?, updated_at = ?, signature = ? WHERE id = ?')
            .run(b.tokens, b.usd, now, signature, held.id)
          this.db.prepare('DELETE FROM usage_releases WHERE budget_id = ?').run(held.id)
          return held.id
        }
        return Number(
          this.db
            .prepare(
              'INSERT INTO usage_budgets (scope, target, tokens, usd, created_at, updated_at, signature) VALUES (?, ?, ?, ?, ?, ?, ?)'
            )
            .run(b.scope, b.target, b.tokens, b.usd, now, now, signature).lastInsertRowid
        )
      })
      .immediate()
    return this.get(id)
  }

  /** Removes a budget (and its releases). */
  remove(id: number): void {
    if (this.db.prepare('DELETE FROM usage_budgets WHERE id = ?').run(id).changes === 0) throw new ApiError(`no budget #${id}`, 'not_found')
  }

  /** Lets a session go on past a budget (as the budget is now: changing the budget voids it). */
  release(id: number, sessionId: string, at = new Date()): void {
    const b = this.get(id)
    if (!sessionId.trim() || sessionId.length > 256) throw new ApiError('a release names its session', 'invalid_input')
    if (!this.keys.signer) throw new ApiError('this process cannot sign releases', 'conflict')
    const signature = JSON.stringify(this.keys.signer().sign(releasePayload(b, sessionId)))
    this.db
      .prepare(
        'INSERT INTO usage_releases (budget_id, session_id, created_at, signature) VALUES (?, ?, ?, ?) ON CONFLICT(budget_id, session_id) DO UPDATE SET created_at = excluded.created_at, signature = excluded.signature'
      )
      .run(id, sessionId, at.toISOString(), signature)
  }

  /** The sessions a trusted operator let go on past budget `b`. */
  released(b: CheckedBudget): Set<string> {
    const trust = this.keys.trust()
    const rows = this.db.prepare('SELECT session_id, signature FROM usage_releases WHERE budget_id = ?').all(b.id) as {
      session_id: string
      signature: string | null
    }[]
    return new Set(rows.filter((r) => trust.check(releasePayload(b, r.session_id), parseSig(r.signature)).ok).map((r) => r.session_id))
  }
}

/** The first UTC hour (`YYYY-MM-DDTHH`) of the local day holding `now`. */
export function todayStartHour(now: Date): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString().slice(0, 13)
}

/** One source's tokens per model within a budget's period, with who and where. */
export interface ScopedUsage {
  session_id: string | null
  harness: string
  agent: string | null
  project: string | null
  model: string
  tokens: TokenCounts
}

/** What a budget counts now. */
export interface BudgetUse {
  tokens: number
  /** The same tokens by kind. */
  counts: TokenCounts
  usd: number | null
  unpriced_tokens: number
  unpriced_models: string[]
  /** Per session (its id), in the budget's period. */
  sessions: Map<string, { harness: string; agent: string | null; tokens: number; usd: number | null }>
}

/** True when a usage row falls under budget `b` (its period aside). */
export function covers(b: BudgetSpec, u: Pick<ScopedUsage, 'session_id' | 'agent' | 'project'>): boolean {
  switch (b.scope) {
    case 'session':
      return u.session_id === b.target
    case 'agent':
      return u.agent === b.target
    case 'project':
      return u.project === b.target
    case 'day':
      return true
  }
}

/** Adds up the usage under budget `b` (rows already limited to its period). */
export function useOf(b: BudgetSpec, rows: readonly ScopedUsage[], prices: Prices): BudgetUse {
  const use: BudgetUse = { tokens: 0, counts: zeroTokens(), usd: null, unpriced_tokens: 0, unpriced_models: [], sessions: new Map() }
  const perSession = new Map<string, { harness: string; agent: string | null; models: Map<string, TokenCounts> }>()
  for (const r of rows) {
    if (!covers(b, r)) continue
    const key = r.session_id ?? ''
    const s = perSession.get(key) ?? perSession.set(key, { harness: r.harness, agent: r.agent, models: new Map() }).get(key)!
    s.agent ??= r.agent
    addTokens(s.models.get(r.model) ?? s.models.set(r.model, zeroTokens()).get(r.model)!, r.tokens)
  }
  for (const [id, s] of perSession) {
    let tokens = 0
    let usd: number | null = null
    for (const [model, t] of s.models) {
      tokens += totalTokens(t)
      addTokens(use.counts, t)
      const est = prices.estimate(model, t)
      if (est === null) {
        use.unpriced_tokens += totalTokens(t)
        if (!use.unpriced_models.includes(model)) use.unpriced_models.push(model)
      } else usd = (usd ?? 0) + est
    }
    use.tokens += tokens
    if (usd !== null) use.usd = (use.usd ?? 0) + usd
    if (id) use.sessions.set(id, { harness: s.harness, agent: s.agent, tokens, usd })
  }
  return use
}

/** True when `use` is over budget `b`'s limit (a dollar budget counts priced tokens only). */
export function isCrossed(b: BudgetSpec, use: Pick<BudgetUse, 'tokens' | 'usd'>): boolean {
  return b.tokens !== null ? use.tokens > b.tokens : (use.usd ?? 0) > b.usd!
}
