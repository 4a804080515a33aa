/** Handlers of gate health: the cached report, and a check on demand (`ctx.gates`, the root's gate monitor). */
import type { gatesMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The gate health handlers bound to a service context. */
export function gatesHandlers(ctx: ServiceContext): HandlersFor<typeof gatesMethods> {
  return {
    'gates.list': () => ctx.gates.report(),
    'gates.check': () => ctx.gates.check()
  }
}
