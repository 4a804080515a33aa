/**
 * Handlers of the hub methods (MemPalace logstream): they map the contract onto the hub service
 * (`ctx.hubs`), writing as the operator (settings' agent id). The service owns the registry, the
 * hubs and their live tails; nothing here touches a hub file. What the operator writes is checked
 * against the invocation protocol first (a body breaking a hard rule is refused).
 */
import type { hubMethods } from '../../shared/api'
import { refuseApprovalEvents } from '../../shared/event-type'
import { assertInvocationsAllowed } from '../invoke'
import { overlayNeeds } from '../needs'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The hub handlers bound to a service context. */
export function hubHandlers(ctx: ServiceContext): HandlersFor<typeof hubMethods> {
  const hubs = ctx.hubs
  const me = (): string => ctx.settings.get().operatorId
  return {
    'hubs.list': () => hubs.listHubs(),
    'hubs.add': (input) => hubs.addHub(input),
    'hubs.remove': ({ name }) => hubs.removeHub(name),
    'hub.list': (input) => hubs.list(input),
    'hub.get': (input) => hubs.get(input),
    'hub.artifact': (input) => hubs.artifact(input),
    'hub.wait': (input) => hubs.wait(input),
    'hub.thread': (input) => hubs.thread(input),
    'hub.tasks': (input) => hubs.tasks(input),
    'hub.presence': (input) => hubs.presence(input),
    'hub.append': (input) => {
      // approval events come from the hook and approvals.decide (signed), never from a plain append
      refuseApprovalEvents(input.type, 'hub.append cannot write')
      assertInvocationsAllowed(input.body ?? '')
      return hubs.append({ ...input, from_agent: me() })
    },
    'hub.ack': (input) => {
      assertInvocationsAllowed(input.body ?? '')
      return hubs.ack({ ...input, from_agent: me() })
    },
    'hub.taskCreate': (input) => {
      assertInvocationsAllowed(`${input.goal}\n${input.done}`)
      return hubs.createTask({ ...input, from_agent: me() })
    },
    'hub.announce': (input) => hubs.announce({ ...input, from_agent: me() }),
    'hub.inbox': (input) => hubs.inbox(input),
    'hub.markRead': (input) => hubs.markRead(input),
    // "needs me" and the approvals count come from the needs-you queue, so the Overview agrees with the badge
    'hub.overview': async (input) => {
      const sel = { hub: input.hub, palace: input.palace }
      const [overview, needs] = await Promise.all([hubs.overview(input), ctx.needs.list(sel).catch(() => null)])
      return needs ? overlayNeeds(overview, needs) : overview
    }
  }
}
