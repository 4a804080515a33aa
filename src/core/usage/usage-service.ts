/**
 * Usage for the operator (the contract's `usage.*` and `budget.*`, `muster usage`, `muster
 * budget`): this machine's harness records read incrementally into the state DB, other machines'
 * sessions from the hubs' usage reports, grouped and estimated with the price table in use; the
 * budgets with what they count; the gate file kept in step with both. A watching service
 * (the app, `muster serve`) refreshes every second and says when anything changed.
 */
import { hostname } from 'node:os'
import { ApiError } from '../../shared/api-error'
import { HARNESSES } from '../../shared/contract/hub-vocabulary'
import { foldUsageReports, USAGE_EVENT, type UsageReport } from '../../shared/contract/usage-event'
import type {
  Budget,
  BudgetScope,
  HarnessUsage,
  ModelPrice,
  PriceTableInfo,
  UsageGroup,
  UsageSummary
} from '../../shared/contract/usage-types'
import type { SettingsStore } from '../fleet'
import type { HubService } from '../hub'
import type { Db } from '../sqlite'
import { budgetLabel, type BudgetKeys } from './budgets'
import { BudgetGate, pricesOf, type BudgetStatus } from './gate'
import { PRICE_OVERRIDES_KEY, priceProblem, readOverrides, SHIPPED_PRICES } from './prices'
import { noUsageOf, USAGE_READERS, type FolderEnv } from './readers'
import { UsageScanner } from './scan'
import { groupUsage, windowDays, type UsageFact } from './summary'
import { UsageStore } from './usage-store'

/** How often a watching service looks for new record files (reading changed ones is every refresh). */
const DISCOVER_EVERY_MS = 10_000
/** Usage reports read per hub and page, and pages at most. */
const REPORT_PAGE = 500
const REPORT_PAGES = 20

/** What the usage service is built on. */
export interface UsageServiceDeps {
  db: Db
  keys: BudgetKeys
  settings: SettingsStore
  /** The registered project holding a folder, or null. */
  projectFor(cwd: string | null): string | null
  /** This machine's environment (the harnesses' folders). */
  env: FolderEnv
  /** The hubs, for other machines' usage reports (none: this machine only). */
  hubs?: HubService
}

/** What `usage.summary` takes. */
export interface SummaryQuery {
  by?: UsageGroup
  since?: string | null
  until?: string | null
  tz_offset_min?: number
  agent?: string
  project?: string
  harness?: string
  session?: string
  model?: string
}

/** The project a stream names (`project/<slug>`), or null. */
function streamProject(stream: string): string | null {
  return stream.startsWith('project/') ? stream.slice('project/'.length) : null
}

/** Usage and budgets of one Muster home. */
export class UsageService {
  readonly store: UsageStore
  readonly scanner: UsageScanner
  readonly gate: BudgetGate
  private lastDiscover = 0
  private refreshing: Promise<boolean> | null = null

  constructor(private readonly deps: UsageServiceDeps) {
    this.store = new UsageStore(deps.db)
    this.scanner = new UsageScanner(this.store, deps.env)
    this.gate = new BudgetGate({ db: deps.db, keys: deps.keys, settings: deps.settings, projectFor: (c) => deps.projectFor(c) })
  }

  /**
   * Reads what changed in the harnesses' records (looking for new files at most every 10 s, or
   * now with `discover`) and writes the gate file; true when any usage changed. One refresh runs
   * at a time: a call during one waits for it.
   */
  refresh(opts: { discover?: boolean } = {}): Promise<boolean> {
    this.refreshing ??= (async () => {
      try {
        let added = 0
        if (opts.discover || Date.now() - this.lastDiscover >= DISCOVER_EVERY_MS) {
          this.lastDiscover = Date.now()
          added = await this.scanner.discover()
        }
        const r = await this.scanner.refresh()
        const changed = r.read > 0 || added > 0
        this.writeGate()
        return changed
      } finally {
        this.refreshing = null
      }
    })()
    return this.refreshing
  }

  /** Writes the gate file from the budgets as they stand (never throws: a home it cannot be written to keeps the hook on the full path). */
  writeGate(): void {
    try {
      this.gate.writeGateFile()
    } catch {
      // no gate file: the hook's fast path sends every call to the full hook, which reads the DB
    }
  }

  /** Other machines' reports from every known hub since `since` (ISO; null: the newest pages). */
  private async reports(since: string | null): Promise<UsageReport[]> {
    const hubs = this.deps.hubs
    if (!hubs) return []
    const { hubs: registered, default: def } = await hubs.listHubs()
    const targets = [
      ...registered.filter((h) => h.online && h.exists).map((h) => ({ hub: h.name })),
      ...(!def.registered && def.exists ? [{ palace: def.palace }] : [])
    ]
    const all = await Promise.all(
      targets.map(async (sel) => {
        const events = []
        let before: string | undefined
        try {
          for (let page = 0; page < REPORT_PAGES; page++) {
            const r = await hubs.list({
              ...sel,
              type: USAGE_EVENT.type,
              topic: USAGE_EVENT.topic,
              ...(since ? { since_created_at: since.slice(0, 19) + 'Z' } : {}),
              ...(before ? { before_event_id: before } : {}),
              order: 'desc',
              limit: REPORT_PAGE
            })
            events.push(...r.events)
            if (!r.has_more || !r.events.length) break
            before = r.events[r.events.length - 1]!.id
          }
        } catch {
          // a hub that cannot be read adds nothing here; its own screens say why
        }
        return events
      })
    )
    return foldUsageReports(all.flat())
  }

  /** Usage over a window, grouped (default: by session, all time). */
  async summary(q: SummaryQuery = {}): Promise<UsageSummary> {
    const by = q.by ?? 'session'
    const tz = q.tz_offset_min ?? new Date().getTimezoneOffset()
    const now = new Date()
    const since = q.since ?? null
    const until = q.until ?? null
    const fromHour = since ? new Date(Date.parse(since)).toISOString().slice(0, 13) : null
    const toHour = until ? new Date(Date.parse(until) + 3_599_999).toISOString().slice(0, 13) : null
    const inWindow = (hour: string): boolean => (!fromHour || hour >= fromHour) && (!toHour || hour < toHour)
    const sources = new Map(this.store.sources().map((s) => [s.id, s]))
    const reports = await this.reports(since)
    // a local session's agent, when no hook named it here, is the one its reports name
    const reportedAgent = new Map(reports.map((r) => [`${r.harness}\u0000${r.session_id}`, r.agent]))
    const local = new Set<string>()
    const facts: UsageFact[] = []
    for (const s of sources.values()) if (s.session_id) local.add(`${s.harness}\u0000${s.session_id}`)
    for (const h of this.store.hours(fromHour, toHour)) {
      const src = sources.get(h.source_id)!
      const session_id = h.session_id ?? `file:${h.source_id}`
      facts.push({
        ...h,
        session_id,
        agent: h.agent ?? reportedAgent.get(`${h.harness}\u0000${session_id}`) ?? null,
        project: h.project ?? this.deps.projectFor(h.cwd) ?? (h.cwd ? (h.cwd.split(/[\\/]/).filter(Boolean).pop() ?? null) : null),
        origin: 'local',
        machine: null,
        source: `local:${h.source_id}`,
        skipped: src.skipped
      })
    }
    for (const r of reports) {
      if (local.has(`${r.harness}\u0000${r.session_id}`)) continue
      for (const [hour, model, input, output, cache_write, cache_read] of r.hours) {
        if (!inWindow(hour)) continue
        facts.push({
          harness: r.harness,
          session_id: r.session_id,
          agent: r.agent,
          project: streamProject(r.stream),
          model,
          hour,
          input,
          output,
          cache_write,
          cache_read,
          origin: 'hub',
          machine: r.machine,
          source: `hub:${r.event_id}`,
          skipped: r.skipped
        })
      }
    }
    const picked = facts.filter(
      (f) =>
        (!q.agent || f.agent === q.agent) &&
        (!q.project || f.project === q.project) &&
        (!q.harness || f.harness === q.harness) &&
        (!q.session || f.session_id === q.session) &&
        (!q.model || f.model === q.model)
    )
    const prices = pricesOf(this.deps.settings)
    const days = since ? windowDays(since, until ?? now.toISOString(), tz) : []
    const { rows, total } = groupUsage(picked, by, prices, { tzOffsetMin: tz, days })
    return {
      by,
      since,
      until,
      rows,
      total,
      prices: prices.info(),
      harnesses: this.harnesses(facts),
      skipped: [...sources.values()].reduce((n, s) => n + s.skipped, 0),
      at: now.toISOString()
    }
  }

  /** Each harness: read (with its sessions), readable but none found, or keeping no usage Muster reads. */
  private harnesses(facts: readonly UsageFact[]): HarnessUsage[] {
    return HARNESSES.map((harness) => {
      const sessions = new Set(facts.filter((f) => f.harness === harness).map((f) => f.session_id)).size
      const reader = USAGE_READERS.find((r) => r.harness === harness)
      if (!reader) return { harness, status: 'no-usage' as const, note: noUsageOf(harness) ?? 'no usage records', sessions }
      const where = reader.roots(this.deps.env).join(', ') || 'its folders (no HOME)'
      return sessions
        ? { harness, status: 'read' as const, note: `read from ${where}`, sessions }
        : { harness, status: 'none-found' as const, note: `no sessions with usage found in ${where} yet`, sessions }
    })
  }

  // ---- prices ----

  /** The price table in use, every model with its price and where it comes from. */
  prices(): { table: PriceTableInfo; models: { model: string; price: ModelPrice; source: 'table' | 'override' }[] } {
    const p = pricesOf(this.deps.settings)
    const models = new Map<string, { model: string; price: ModelPrice; source: 'table' | 'override' }>()
    for (const [model, price] of Object.entries(SHIPPED_PRICES.models)) models.set(model, { model, price, source: 'table' })
    for (const [model, price] of Object.entries(p.overrides)) models.set(model, { model, price, source: 'override' })
    return { table: p.info(), models: [...models.values()].sort((a, b) => a.model.localeCompare(b.model)) }
  }

  /** Sets the operator's own price of a model (null: back to the table's). */
  setPrice(model: string, price: ModelPrice | null): ReturnType<UsageService['prices']> {
    const name = model.trim()
    if (!name || name.length > 200) throw new ApiError('a price names its model', 'invalid_input')
    const problem = price ? priceProblem(price) : null
    if (problem) throw new ApiError(`invalid price: ${problem}`, 'invalid_input')
    const overrides = readOverrides(this.deps.settings.internal(PRICE_OVERRIDES_KEY))
    if (price) overrides[name] = price
    else delete overrides[name]
    this.deps.settings.setInternal(PRICE_OVERRIDES_KEY, Object.keys(overrides).length ? overrides : undefined)
    this.writeGate()
    return this.prices()
  }

  // ---- budgets ----

  /** Every budget with what it counts now. */
  budgets(): Budget[] {
    const since = this.gate.crossedSince()
    return this.gate.statuses().map((s) => this.budgetOf(s, since))
  }

  /** Sets (adds or replaces) the budget of a scope and target, signed by the operator. */
  setBudget(input: { scope: BudgetScope; target?: string; tokens?: number | null; usd?: number | null }): Budget {
    const b = this.gate.budgets.set({
      scope: input.scope,
      target: input.target ?? '',
      tokens: input.tokens ?? null,
      usd: input.usd ?? null
    })
    this.writeGate()
    return this.budget(b.id)
  }

  /** Removes a budget. */
  removeBudget(id: number): { removed: number } {
    this.gate.budgets.remove(id)
    this.writeGate()
    return { removed: id }
  }

  /** Lets a session go on past a budget (signed by the operator). */
  releaseSession(id: number, sessionId: string): Budget {
    this.gate.budgets.release(id, sessionId)
    this.writeGate()
    return this.budget(id)
  }

  /** One budget with what it counts now. */
  budget(id: number): Budget {
    const s = this.gate.statuses().find((x) => x.budget.id === id)
    if (!s) throw new ApiError(`no budget #${id}`, 'not_found')
    return this.budgetOf(s, this.gate.crossedSince())
  }

  private budgetOf(s: BudgetStatus, since: ReadonlyMap<number, string>): Budget {
    const b = s.budget
    return {
      id: b.id,
      scope: b.scope,
      target: b.target,
      tokens: b.tokens,
      usd: b.usd,
      created_at: b.created_at,
      updated_at: b.updated_at,
      trusted: b.trusted,
      untrusted_reason: b.untrusted_reason,
      label: budgetLabel(b),
      used: {
        tokens: s.use.counts,
        total: s.use.tokens,
        usd: s.use.usd,
        unpriced_tokens: s.use.unpriced_tokens,
        unpriced_models: [...s.use.unpriced_models].sort()
      },
      crossed: s.crossed,
      crossed_since: s.crossed ? since.get(b.id) || null : null,
      held: s.crossed
        ? [...s.use.sessions.entries()].map(([session_id, x]) => ({
            session_id,
            harness: x.harness,
            agent: x.agent,
            total: x.tokens,
            usd: x.usd,
            released: s.released.has(session_id)
          }))
        : []
    }
  }
}

/** This machine's name, as usage reports carry it. */
export function machineName(): string {
  try {
    return hostname() || 'unknown'
  } catch {
    return 'unknown'
  }
}
