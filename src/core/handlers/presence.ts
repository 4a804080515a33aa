/**
 * Handlers of the presence methods: they map the contract onto the home's presence service
 * (authenticators, policy, risky list; every change with presence once one is enrolled).
 */
import type { presenceMethods } from '../../shared/api'
import type { PresenceChange } from '../presence'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The presence handlers bound to a service context. */
export function presenceHandlers(ctx: ServiceContext): HandlersFor<typeof presenceMethods> {
  const p = ctx.presence
  return {
    'presence.status': () => p.status(),
    'presence.challenge': (input) => {
      const change: PresenceChange =
        input.op === 'policy'
          ? { op: 'policy', fields: { policy: input.policy, risky: input.risky ?? p.config().risky } }
          : { op: 'credential.remove', fields: { id: input.id } }
      return p.challenge(change)
    },
    'presence.enrolStart': async ({ origin }) => ({ options: (await p.enrolStart(origin)) as unknown as Record<string, unknown> }),
    'presence.enrolFinish': (input) => p.enrolFinish(input),
    'presence.remove': async (input) => {
      await p.remove(input)
      return { removed: input.id }
    },
    'presence.setPolicy': (input) => p.setPolicy(input)
  }
}
