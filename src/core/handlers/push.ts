/**
 * Handlers of the phone-push methods: they map the contract onto the home's push service (its
 * VAPID key and subscribed devices).
 */
import type { pushMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The push handlers bound to a service context. */
export function pushHandlers(ctx: ServiceContext): HandlersFor<typeof pushMethods> {
  return {
    'push.key': async () => ({ public_key: (await ctx.push()).publicKey() }),
    'push.subscribe': async ({ name, subscription }) => ({ device: (await ctx.push()).subscribe(name, subscription) }),
    'push.devices': async () => ({ devices: (await ctx.push()).list() }),
    'push.revoke': async ({ id }) => {
      ;(await ctx.push()).revoke(id)
      return { revoked: id }
    }
  }
}
