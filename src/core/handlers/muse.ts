/**
 * Handlers of the MUSE methods (directives, role files, memory, lint).
 */
import type { museMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The MUSE handlers bound to a service context. */
export function museHandlers(_ctx: ServiceContext): HandlersFor<typeof museMethods> {
  return {}
}
