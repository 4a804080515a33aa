/**
 * The names of every pushed event, without their schemas: what the browser transport listens for
 * before the contract (and zod) is loaded. A Record over `EventName`, so the typecheck fails when
 * an event is added to the contract and not here, or named here and not there.
 */
import type { EventName } from './api'

const NAMES: Record<EventName, true> = {
  'fleet.changed': true,
  'projects.changed': true,
  'settings.changed': true,
  'hub.events': true,
  'hub.inbox': true,
  'hub.status': true,
  'muse.written': true,
  'needs.changed': true,
  'gates.changed': true,
  'notes.changed': true,
  'patch.run': true,
  'patch.output': true,
  'usage.changed': true
}

/** Every pushed event's name. */
export const EVENT_NAMES = Object.keys(NAMES) as EventName[]
