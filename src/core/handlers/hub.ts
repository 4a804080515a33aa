/**
 * Handlers of the hub methods (MemPalace logstream).
 */
import type { hubMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The hub handlers bound to a service context. */
export function hubHandlers(_ctx: ServiceContext): HandlersFor<typeof hubMethods> {
  return {}
}
