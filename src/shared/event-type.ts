/**
 * Event types as Muster compares them where it refuses or routes an event. The hub's writer trims
 * a type before it stores it (MemPalace's `str.strip()`), so a refusal that looked at the raw
 * text (`" approval.decision"`) let through what the hub then stored as `approval.decision`.
 * Every refusal and every routing decision compares `eventTypeKey(type)` instead: trimmed as the
 * writer trims and case-folded, so no spelling of a type reaches the hub as something it was not
 * refused as.
 */
import { ApiError } from './api-error'
import { EventType } from './contract/hub-vocabulary'

// Python's str.strip() whitespace (the writer's `pyStrip`): JS `\s` plus \x1c-\x1f and U+0085.
// eslint-disable-next-line no-control-regex
const EDGE_WS = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g

/** An event type as it is compared: trimmed as the hub's writer trims it, then case-folded. */
export function eventTypeKey(type: string): string {
  return type.replace(EDGE_WS, '').toLowerCase()
}

/** True when `type` names an approval event (`approval.request`, `approval.decision`, any `approval.*`), however spelt. */
export function isApprovalEventType(type: unknown): boolean {
  return typeof type === 'string' && eventTypeKey(type).startsWith('approval.')
}

/** True when `type` is `want` once trimmed and case-folded. */
export function isEventType(type: unknown, want: string): boolean {
  return typeof type === 'string' && eventTypeKey(type) === want
}

/**
 * Refuses an approval event before anything is written. Approval events come only from the hook
 * (`approval.request`) and the operator's signed decisions (`approval.decision`, through the
 * approvals service): an agent appending one through the hub tools or `events append`, or any
 * caller of the contract's `hub.append`, could put a fake request in the inbox or a decision in a
 * waiting hook's thread. `who` opens the message ("agents cannot append", "hub.append cannot write").
 */
export function refuseApprovalEvents(type: unknown, who = 'agents cannot append'): void {
  if (!isApprovalEventType(type)) return
  const key = eventTypeKey(type as string)
  const named = key === EventType.approvalRequest || key === EventType.approvalDecision ? key : 'approval.*'
  throw new ApiError(`${who} ${named} events: requests come from \`muster approve-hook\`, decisions only from the operator`, 'forbidden')
}
