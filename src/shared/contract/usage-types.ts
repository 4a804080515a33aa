/**
 * Data types of the usage part of the contract: tokens and estimated spend per session, agent,
 * project, harness, model or day (every dollar figure an estimate from a dated price table), the
 * price table itself, and the operator's budgets.
 */
import { z } from 'zod'

/** Tokens of the four kinds (src/shared/contract/tokens.ts says what each one counts). */
export const TokenCountsSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cache_write: z.number().int().nonnegative(),
  cache_read: z.number().int().nonnegative()
})

/** A model's price: US dollars per million tokens of each kind. */
export const ModelPriceSchema = z.object({
  input: z.number().nonnegative().max(100_000),
  output: z.number().nonnegative().max(100_000),
  cache_write: z.number().nonnegative().max(100_000),
  cache_read: z.number().nonnegative().max(100_000)
})
/** A model's price (dollars per million tokens of each kind). */
export type ModelPrice = z.infer<typeof ModelPriceSchema>

/** Which price table an estimate comes from: its version and date, sources, and the models the operator priced. */
export const PriceTableInfoSchema = z.object({
  version: z.number().int(),
  date: z.string(),
  currency: z.string(),
  sources: z.array(z.string()),
  notes: z.string(),
  /** Models whose price is the operator's own (Settings). */
  overridden: z.array(z.string())
})
/** Which price table an estimate comes from. */
export type PriceTableInfo = z.infer<typeof PriceTableInfoSchema>

/** What usage can be grouped by. */
export const USAGE_GROUPS = ['session', 'agent', 'project', 'harness', 'model', 'day'] as const
export const UsageGroupSchema = z.enum(USAGE_GROUPS)
/** What usage is grouped by. */
export type UsageGroup = z.infer<typeof UsageGroupSchema>

/** Tokens and their estimate (null when none of the tokens has a price). */
export const SpendSchema = z.object({
  tokens: TokenCountsSchema,
  total: z.number().int().nonnegative(),
  usd: z.number().nonnegative().nullable(),
  /** Tokens of models the price table does not know: counted, never priced as 0. */
  unpriced_tokens: z.number().int().nonnegative(),
  unpriced_models: z.array(z.string())
})
/** Tokens and their estimate. */
export type Spend = z.infer<typeof SpendSchema>

/** One day of a row (local day of the asker, `YYYY-MM-DD`). */
export const UsageDaySchema = z.object({ day: z.string(), total: z.number().int().nonnegative(), usd: z.number().nonnegative().nullable() })

/** Where a session's figures come from: this machine's records, or another machine's reports through a hub. */
export const UsageOriginSchema = z.enum(['local', 'hub'])

/** A session's particulars (rows grouped by session). */
export const UsageSessionInfoSchema = z.object({
  session_id: z.string(),
  harness: z.string(),
  agent: z.string().nullable(),
  project: z.string().nullable(),
  models: z.array(z.string()),
  first: z.string(),
  last: z.string(),
  origin: UsageOriginSchema,
  /** The machine that read it (a hub report's), null for this one. */
  machine: z.string().nullable(),
  /** Lines of its records skipped as unreadable. */
  skipped: z.number().int().nonnegative()
})
/** A session's particulars. */
export type UsageSessionInfo = z.infer<typeof UsageSessionInfoSchema>

/** One group: its key (the session id, agent, project, harness, model or day), spend, sessions, and per day. */
export const UsageRowSchema = SpendSchema.extend({
  key: z.string(),
  sessions: z.number().int().nonnegative(),
  /** Per local day of the window, oldest first (windows of up to 31 days). */
  days: z.array(UsageDaySchema),
  session: UsageSessionInfoSchema.optional()
})
/** One group of usage. */
export type UsageRow = z.infer<typeof UsageRowSchema>

/** Whether Muster reads a harness's usage, and what it found. */
export const HarnessUsageSchema = z.object({
  harness: z.string(),
  /** `read`: records found and read; `none-found`: readable, none found yet; `no-usage`: the harness records no token counts Muster can read. */
  status: z.enum(['read', 'none-found', 'no-usage']),
  note: z.string(),
  sessions: z.number().int().nonnegative()
})
/** A harness's usage status. */
export type HarnessUsage = z.infer<typeof HarnessUsageSchema>

/** Usage over a window, grouped. */
export const UsageSummarySchema = z.object({
  by: UsageGroupSchema,
  /** The window, ISO (`until` null: up to now). */
  since: z.string().nullable(),
  until: z.string().nullable(),
  rows: z.array(UsageRowSchema),
  total: UsageRowSchema,
  prices: PriceTableInfoSchema,
  harnesses: z.array(HarnessUsageSchema),
  /** Unreadable lines skipped across the records read. */
  skipped: z.number().int().nonnegative(),
  at: z.string()
})
/** Usage over a window, grouped. */
export type UsageSummary = z.infer<typeof UsageSummarySchema>

/** What a budget covers: one session (all of it), one agent or project today, or the whole fleet today. */
export const BUDGET_SCOPES = ['session', 'agent', 'project', 'day'] as const
export const BudgetScopeSchema = z.enum(BUDGET_SCOPES)
/** What a budget covers. */
export type BudgetScope = z.infer<typeof BudgetScopeSchema>

/** A session held by a crossed budget. */
export const HeldSessionSchema = z.object({
  session_id: z.string(),
  harness: z.string(),
  agent: z.string().nullable(),
  total: z.number().int().nonnegative(),
  usd: z.number().nonnegative().nullable(),
  /** The operator let it go on past this budget. */
  released: z.boolean()
})

/** A budget with what it counts now. */
export const BudgetSchema = z.object({
  id: z.number().int(),
  scope: BudgetScopeSchema,
  /** The session id, agent or project ('' for the fleet's day). */
  target: z.string(),
  tokens: z.number().int().positive().nullable(),
  usd: z.number().positive().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Signed by a trusted operator key; an unsigned budget gates nothing. */
  trusted: z.boolean(),
  untrusted_reason: z.string().nullable(),
  /** One line: `session 36009991: 40,000 tokens`, `agent mac-claude today: $5.00 (estimate)`. */
  label: z.string(),
  used: SpendSchema,
  crossed: z.boolean(),
  /** Since when it is crossed (ISO), as the gate first saw it. */
  crossed_since: z.string().nullable(),
  /** The sessions it holds (when crossed). */
  held: z.array(HeldSessionSchema)
})
/** A budget. */
export type Budget = z.infer<typeof BudgetSchema>

/** What an approval request held by a budget carries (its metadata `budget`), as the inbox shows it. */
export const BudgetHoldSchema = z.object({
  id: z.number().int(),
  scope: BudgetScopeSchema,
  target: z.string(),
  label: z.string(),
  limit_tokens: z.number().nullable(),
  limit_usd: z.number().nullable(),
  used_tokens: z.number(),
  used_usd: z.number().nullable(),
  /** The project the hook found for the call (a project budget's target), or null. */
  project: z.string().nullable(),
  /** The allowlist rule that would have allowed the call (the call runs once the budget no longer holds it). */
  rule_id: z.number().int().nullable()
})
/** A budget holding a call. */
export type BudgetHoldInfo = z.infer<typeof BudgetHoldSchema>
