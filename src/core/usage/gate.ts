/**
 * What the budgets hold now: each budget with the usage it counts (a session's whole usage; an
 * agent's, a project's or the fleet's since local midnight), whether it is crossed, and which
 * sessions it holds; the hold on one tool call (for the hook); and the gate file the hook's fast
 * path reads (`gate-file.ts`), written from the same answer.
 */
import type { BudgetHoldInfo } from '../../shared/contract/usage-types'
import type { SettingsStore } from '../fleet'
import type { Db } from '../sqlite'
import {
  BudgetStore,
  budgetLabel,
  covers,
  isCrossed,
  todayStartHour,
  useOf,
  type BudgetKeys,
  type BudgetUse,
  type CheckedBudget,
  type ScopedUsage
} from './budgets'
import { readGate, writeGate, type GateEntry } from './gate-file'
import { PRICE_OVERRIDES_KEY, Prices, readOverrides } from './prices'
import { UsageStore } from './usage-store'

/** A budget and what it counts now. */
export interface BudgetStatus {
  budget: CheckedBudget
  use: BudgetUse
  /** Trusted and over its limit. */
  crossed: boolean
  /** Sessions the operator let go on past it. */
  released: Set<string>
}

/** What the gate reads. */
export interface GateDeps {
  db: Db
  keys: BudgetKeys
  /** The settings store of the same DB (price overrides), or null (the shipped prices). */
  settings: Pick<SettingsStore, 'internal'> | null
  /** The registered project holding a folder. */
  projectFor(cwd: string | null): string | null
  now?: () => Date
}

/** A tool call as the gate sees it. */
export interface GatedCall {
  session_id: string | null
  agent: string
  project: string | null
}

/** The prices in use for a state DB: the shipped table and the operator's overrides. */
export function pricesOf(settings: Pick<SettingsStore, 'internal'> | null): Prices {
  return new Prices(undefined, readOverrides(settings?.internal(PRICE_OVERRIDES_KEY)))
}

/** Budgets against usage, in one state DB. */
export class BudgetGate {
  readonly budgets: BudgetStore
  private readonly usage: UsageStore

  constructor(private readonly deps: GateDeps) {
    this.budgets = new BudgetStore(deps.db, deps.keys)
    this.usage = new UsageStore(deps.db)
  }

  /** True when the DB has the usage and budget tables. */
  static available(db: Db): boolean {
    return BudgetStore.available(db) && UsageStore.available(db)
  }

  /** The usage rows budgets count: today's for every source, and every hour of the budgeted sessions. */
  private rows(list: readonly CheckedBudget[], now: Date): { today: ScopedUsage[]; sessions: ScopedUsage[] } {
    const resolve = (r: ReturnType<UsageStore['bySource']>[number]): ScopedUsage => ({
      session_id: r.session_id,
      harness: r.harness,
      agent: r.agent,
      project: r.project ?? this.deps.projectFor(r.cwd),
      model: r.model,
      tokens: { input: r.input, output: r.output, cache_write: r.cache_write, cache_read: r.cache_read }
    })
    const daily = list.some((b) => b.scope !== 'session')
    const sessionIds = list.filter((b) => b.scope === 'session').map((b) => b.target)
    return {
      today: daily ? this.usage.bySource(todayStartHour(now)).map(resolve) : [],
      sessions: sessionIds.length ? this.usage.bySource(null, sessionIds).map(resolve) : []
    }
  }

  /** Every budget with what it counts now, oldest first. */
  statuses(): BudgetStatus[] {
    const now = (this.deps.now ?? (() => new Date()))()
    const list = this.budgets.list()
    if (!list.length) return []
    const prices = pricesOf(this.deps.settings)
    const rows = this.rows(list, now)
    return list.map((budget) => {
      const use = useOf(budget, budget.scope === 'session' ? rows.sessions : rows.today, prices)
      return { budget, use, crossed: budget.trusted && isCrossed(budget, use), released: this.budgets.released(budget) }
    })
  }

  /** The first crossed, trusted budget holding this call (its session not released from it), or null. */
  holdFor(call: GatedCall): BudgetHoldInfo | null {
    for (const s of this.statuses()) {
      if (!s.crossed || !covers(s.budget, call)) continue
      if (call.session_id && s.released.has(call.session_id)) continue
      return holdInfo(s, call.project)
    }
    return null
  }

  /** The state DB's file, or null for one in memory. */
  private file(): string | null {
    const file = this.deps.db.name
    return file && file !== ':memory:' && !this.deps.db.memory ? file : null
  }

  /** The budgets the gate file names as crossed, with since when (empty without one). */
  crossedSince(): Map<number, string> {
    const file = this.file()
    return new Map((file ? (readGate(file) ?? []) : []).map((e) => [e.id, e.since]))
  }

  /** Writes the gate file beside the DB from the budgets crossed now (keeping since when each one is); returns them. */
  writeGateFile(statuses: readonly BudgetStatus[] = this.statuses()): GateEntry[] {
    const file = this.file()
    const before = this.crossedSince()
    const now = (this.deps.now ?? (() => new Date()))().toISOString()
    const crossed = statuses
      .filter((s) => s.crossed)
      .map((s) => ({ id: s.budget.id, scope: s.budget.scope, target: s.budget.target, since: before.get(s.budget.id) || now }))
    if (file) writeGate(file, crossed)
    return crossed
  }
}

/** What a held call's request carries about the budget. */
export function holdInfo(s: BudgetStatus, project: string | null, ruleId: number | null = null): BudgetHoldInfo {
  return {
    id: s.budget.id,
    scope: s.budget.scope,
    target: s.budget.target,
    label: budgetLabel(s.budget),
    limit_tokens: s.budget.tokens,
    limit_usd: s.budget.usd,
    used_tokens: s.use.tokens,
    used_usd: s.use.usd,
    project,
    rule_id: ruleId
  }
}
