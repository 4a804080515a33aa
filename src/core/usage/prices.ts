/**
 * Estimated spend: the dated, versioned price table Muster ships (`price-table.json`: US dollars
 * per million tokens of each kind, per model, with where each price comes from) and the operator's
 * overrides from Settings, which win model by model. A model the table does not know is never
 * priced as 0: its tokens are counted and it is flagged as unpriced. Every figure made here is an
 * estimate, and is shown labelled as one with the table's date.
 */
import { TOKEN_KINDS, type TokenCounts } from '../../shared/contract/tokens'
import type { ModelPrice, PriceTableInfo } from '../../shared/contract/usage-types'
import shipped from './price-table.json'

/** The table as shipped: its version, date, sources, aliases (dated API ids) and prices. */
export interface PriceTable {
  version: number
  date: string
  currency: string
  unit: string
  sources: string[]
  notes: string
  aliases: Record<string, string>
  models: Record<string, ModelPrice>
}

/** The price table Muster ships. */
export const SHIPPED_PRICES: PriceTable = shipped

/** The table in use: the shipped one with the operator's overrides on top. */
export class Prices {
  constructor(
    readonly table: PriceTable = SHIPPED_PRICES,
    readonly overrides: Readonly<Record<string, ModelPrice>> = {}
  ) {}

  /** The key a model is priced under (overrides first, then the table, its aliases and plain forms), or null. */
  keyOf(model: string): string | null {
    for (const m of candidates(model)) {
      if (this.overrides[m]) return m
      if (this.table.models[m]) return m
      const alias = this.table.aliases[m]
      if (alias && this.table.models[alias]) return alias
    }
    return null
  }

  /** The price of a model (per million tokens of each kind), or null when unknown. */
  of(model: string): ModelPrice | null {
    const key = this.keyOf(model)
    return key ? (this.overrides[key] ?? this.table.models[key] ?? null) : null
  }

  /** The estimate in dollars for `tokens` of `model`, or null when the model has no price. */
  estimate(model: string, tokens: TokenCounts): number | null {
    const p = this.of(model)
    return p ? usdOf(tokens, p) : null
  }

  /** What the table is, for every screen that shows an estimate. */
  info(): PriceTableInfo {
    return {
      version: this.table.version,
      date: this.table.date,
      currency: this.table.currency,
      sources: this.table.sources,
      notes: this.table.notes,
      overridden: Object.keys(this.overrides).sort()
    }
  }
}

/** Dollars for `tokens` at `p` (per million tokens of each kind). */
export function usdOf(tokens: TokenCounts, p: ModelPrice): number {
  let usd = 0
  for (const k of TOKEN_KINDS) usd += (tokens[k] * p[k]) / 1_000_000
  return usd
}

/** The forms a model id is looked up under: as given, without a provider prefix, without a date or `@version` suffix. */
function candidates(model: string): string[] {
  const out = [model]
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model
  out.push(bare)
  out.push(bare.replace(/@.*$/, ''), bare.replace(/-\d{8}$/, ''), bare.replace(/-\d{4}-\d{2}-\d{2}$/, ''))
  return [...new Set(out)]
}

/** A price as the operator may set it: four non-negative finite numbers (per million tokens), else the reason why not. */
export function priceProblem(p: ModelPrice): string | null {
  for (const k of TOKEN_KINDS) {
    const v = p[k]
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100_000) return `${k} must be a number of dollars from 0 to 100000`
  }
  return null
}

/** Where the operator's price overrides are kept (beside the settings, in the state DB). */
export const PRICE_OVERRIDES_KEY = 'usage.prices'

/** The overrides as stored (a JSON object of model → price), keeping only valid entries. */
export function readOverrides(value: unknown): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {}
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out
  for (const [model, p] of Object.entries(value as Record<string, unknown>)) {
    if (!p || typeof p !== 'object' || model.length > 200) continue
    const price = p as ModelPrice
    if (!priceProblem(price))
      out[model] = { input: price.input, output: price.output, cache_write: price.cache_write, cache_read: price.cache_read }
  }
  return out
}
