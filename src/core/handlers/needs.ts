/**
 * Handlers of the needs-you methods: they map the contract onto the queue (`ctx.needs`), which the
 * service builds on the hub, approvals and patch services and the directive index.
 */
import type { needsMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The needs-you handlers bound to a service context. */
export function needsHandlers(ctx: ServiceContext): HandlersFor<typeof needsMethods> {
  return {
    'needs.list': (input) => ctx.needs.list(input)
  }
}
