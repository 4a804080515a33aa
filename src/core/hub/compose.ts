/**
 * Events Muster composes from higher-level requests, the same for every hub implementation: a
 * presence announcement is an ordinary `status` append, whoever stores it.
 */
import { BROADCAST, EventType, PRESENCE_STREAM, Room } from '../../shared/contract/hub-vocabulary'
import type { AnnounceInput, AppendInput } from './hub-port'

/** The `type=status`, `room=status`, `to_agent='*'` event announcing what an agent watches. */
export function announcement(a: AnnounceInput): AppendInput {
  const me = a.from_agent
  const metadata: Record<string, unknown> = { filters: a.filters ?? { to_agent: [me] }, cursor: a.cursor ?? null, harness: 'muster' }
  const body = a.body ?? `${me} watching via Muster (to_agent=${me} or *)${a.cursor ? ` cursor ${a.cursor}` : ''}`
  return {
    type: EventType.status,
    stream: a.stream ?? PRESENCE_STREAM,
    room: Room.status,
    from_agent: me,
    to_agent: BROADCAST,
    body,
    metadata
  }
}
