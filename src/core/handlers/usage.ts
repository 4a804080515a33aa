/**
 * Handlers of the usage and budget methods: they map the contract onto the usage service (this
 * machine's harness records, other machines' reports through the hubs, the price table, budgets).
 * A one-shot service (the CLI) reads what changed in the records first; a watching one keeps up
 * by itself. A budget changed lets go the calls it no longer holds that an allowlist rule allows.
 */
import type { usageMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'
import { releaseHeldCalls } from '../usage'

/** The usage handlers bound to a service context. */
export function usageHandlers(ctx: ServiceContext): HandlersFor<typeof usageMethods> {
  const changed = (): void => ctx.emit({ name: 'usage.changed', payload: { at: new Date().toISOString() } })
  /** After a budget changed: the gate file is written; held calls no budget holds now are let go. */
  const after = async (why: string): Promise<void> => {
    changed()
    await releaseHeldCalls(ctx.usage, ctx.approvals, why)
  }
  return {
    'usage.summary': async (input) => {
      if (!ctx.opts.watch) await ctx.usage.refresh({ discover: true })
      return ctx.usage.summary(input)
    },
    'usage.prices': () => ctx.usage.prices(),
    'usage.setPrice': ({ model, price }) => {
      const out = ctx.usage.setPrice(model, price)
      changed()
      return out
    },
    'budget.list': async () => {
      if (!ctx.opts.watch) await ctx.usage.refresh({ discover: true })
      return { budgets: ctx.usage.budgets() }
    },
    'budget.set': async (input) => {
      const b = ctx.usage.setBudget(input)
      await after(`budget #${b.id} is now ${b.label}`)
      return ctx.usage.budget(b.id)
    },
    'budget.remove': async ({ id }) => {
      const out = ctx.usage.removeBudget(id)
      await after(`budget #${id} was removed`)
      return out
    },
    'budget.release': async ({ id, session_id }) => {
      const b = ctx.usage.releaseSession(id, session_id)
      await after(`session ${session_id} may go on past budget #${id}`)
      return ctx.usage.budget(b.id)
    }
  }
}
