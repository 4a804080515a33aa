/**
 * The usage part of the contract: tokens and estimated spend (always an estimate, from a dated
 * price table) per session, agent, project, harness, model or day; the price table and the
 * operator's own prices; budgets, signed by the operator, that hold an over-budget session's
 * tool calls for the operator.
 */
import { z } from 'zod'
import {
  BudgetSchema,
  BudgetScopeSchema,
  ModelPriceSchema,
  PriceTableInfoSchema,
  UsageGroupSchema,
  UsageSummarySchema
} from './usage-types'

export * from './usage-types'

const Instant = z
  .string()
  .trim()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not a date and time')
const Name = z.string().trim().min(1).max(256)

/** The prices in use: the table's particulars and every model with its price and where it comes from. */
export const PricesSchema = z.object({
  table: PriceTableInfoSchema,
  models: z.array(z.object({ model: z.string(), price: ModelPriceSchema, source: z.enum(['table', 'override']) }))
})

/** Methods of usage and budgets. */
export const usageMethods = {
  /** Usage in a window (`since`/`until`, ISO; none: all of it), grouped `by` (default session), with filters; local days by `tz_offset_min`. */
  'usage.summary': {
    input: z
      .object({
        by: UsageGroupSchema.optional(),
        since: Instant.optional(),
        until: Instant.optional(),
        tz_offset_min: z
          .number()
          .int()
          .min(-16 * 60)
          .max(16 * 60)
          .optional(),
        agent: Name.optional(),
        project: Name.optional(),
        harness: Name.optional(),
        session: Name.optional(),
        model: Name.optional()
      })
      .strict(),
    output: UsageSummarySchema
  },
  /** The price table in use. */
  'usage.prices': { input: z.object({}).strict(), output: PricesSchema },
  /** The operator's own price of a model (`price` null: back to the table's). */
  'usage.setPrice': {
    input: z.object({ model: z.string().trim().min(1).max(200), price: ModelPriceSchema.nullable() }).strict(),
    output: PricesSchema
  },
  /** Every budget with what it counts now. */
  'budget.list': { input: z.object({}).strict(), output: z.object({ budgets: z.array(BudgetSchema) }) },
  /**
   * Sets the budget of a session, an agent (today), a project (today) or the fleet (today), in
   * tokens or estimated dollars; replaces the one of the same scope and target. Signed by the
   * operator. Calls it held that an allowlist rule allows run once it no longer holds them.
   */
  'budget.set': {
    input: z
      .object({
        scope: BudgetScopeSchema,
        target: z.string().trim().max(256).optional(),
        tokens: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
        usd: z.number().positive().max(10_000_000).optional()
      })
      .strict(),
    output: BudgetSchema
  },
  /** Removes a budget. */
  'budget.remove': { input: z.object({ id: z.number().int().positive() }).strict(), output: z.object({ removed: z.number().int() }) },
  /** Lets one session go on past a budget (until the budget changes). */
  'budget.release': {
    input: z.object({ id: z.number().int().positive(), session_id: Name }).strict(),
    output: BudgetSchema
  }
} as const

/** Events of usage. */
export const usageEvents = {
  /** Usage or budgets changed (pushed by a watching service). */
  'usage.changed': z.object({ at: z.string() })
} as const
