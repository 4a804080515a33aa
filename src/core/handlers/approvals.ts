/**
 * Handlers of the approvals methods: they map the contract onto the approvals service (inbox
 * across hubs, decisions as the operator through the hub service) and the allowlist store.
 */
import type { approvalMethods } from '../../shared/api'
import { AllowlistStore, ApprovalsService, SnoozeStore } from '../approvals'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The approvals handlers bound to a service context. */
export function approvalHandlers(ctx: ServiceContext): HandlersFor<typeof approvalMethods> {
  const keys = { trust: () => ctx.keys.decisionTrust(), signer: () => ctx.keys.signer() }
  const rules = new AllowlistStore(ctx.db, keys)
  // the app and `muster serve` attest a mirror a hook wrote (the hook holds no key to)
  if (ctx.opts.watch) rules.attestMirror()
  const approvals = new ApprovalsService({
    hubs: ctx.hubs,
    rules,
    operator: () => ctx.settings.get().operatorId,
    keys,
    snoozes: new SnoozeStore(ctx.db),
    presence: () => ctx.presence.enforced()
  })
  return {
    // the allowlisted calls still in the hook's spool are recorded first: the history and the
    // rules' hit counts include every call answered so far
    'approvals.list': async (input) => {
      await ctx.drainHookJobs()
      return approvals.list(input)
    },
    'approvals.decide': (input) => approvals.decide(input),
    'approvals.presenceChallenge': (input) => approvals.presenceChallenge(input),
    'approvals.decideMany': async ({ items, decision, reason }) => {
      const results = []
      // One after another: each decision is its own append, and a failure stays with its item.
      for (const { id, ...sel } of items) {
        try {
          results.push({ id, ...(await approvals.decide({ ...sel, id, decision, reason })) })
        } catch (err) {
          results.push({ id, error: (err as Error).message })
        }
      }
      return { results }
    },
    'approvals.snooze': (input) => approvals.snooze(input),
    'approvals.rules': async () => {
      await ctx.drainHookJobs()
      return { rules: approvals.rules.list().map(AllowlistStore.shown) }
    },
    'approvals.ruleSave': (input) => AllowlistStore.shown(approvals.rules.save(input)),
    'approvals.ruleDelete': ({ id }) => {
      approvals.rules.delete(id)
      return { deleted: id }
    }
  }
}
