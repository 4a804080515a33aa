/**
 * A patch's state in the inbox, folded from the hub: the newest `applied` / `failed` /
 * `superseded` ack of the `patch.ready` decides (the hub's word, as upstream reads it); else, as
 * Muster's own view (upstream has no such rule, so it is labelled as Muster's and never set by
 * anyone but the sender), a newer `patch.ready` from the SAME sender in the same thread supersedes
 * it: another agent's patch in the thread never hides a sender's patch; else a refused
 * verification makes it `refused` (Muster's verdict); else it is `waiting`.
 */
import { ACK_OF, PATCH_CLOSING_STATUSES, type EventStatus } from '../../shared/contract/hub-vocabulary'
import type { HubEventEnvelope, PatchState } from '../../shared/api'

/** The state of one patch and what set it. */
export interface FoldedState {
  state: PatchState
  reason: string
  event_id: string | null
  by: string | null
  at: string | null
  /** True when Muster's own rule set the state (a newer patch from the sender, a refused verification), not a hub event. */
  byMuster: boolean
}

/** The events a fold looks at: acks (any) and `patch.ready` events of the same threads. */
export interface StateInputs {
  acks: readonly HubEventEnvelope[]
  patches: readonly HubEventEnvelope[]
}

/** Folds the state of `patch` given the acks and patches around it and its verification verdict. */
export function foldPatchState(patch: HubEventEnvelope, around: StateInputs, refusedBecause: string | null): FoldedState {
  const closing = around.acks
    .filter((a) => a.metadata[ACK_OF] === patch.id && (PATCH_CLOSING_STATUSES as readonly (string | null)[]).includes(a.status))
    .sort((a, b) => b.seq - a.seq)[0]
  if (closing) {
    const line = closing.body.split('\n').find((l) => l.trim()) ?? ''
    return {
      state: closing.status as EventStatus & PatchState,
      reason: `${closing.status} by ${closing.from_agent}${line ? `: ${line.trim()}` : ''}`,
      event_id: closing.id,
      by: closing.from_agent,
      at: closing.created_at,
      byMuster: false
    }
  }
  const newer = patch.correlation_id
    ? around.patches
        .filter((p) => p.correlation_id === patch.correlation_id && p.from_agent === patch.from_agent && p.seq > patch.seq)
        .sort((a, b) => a.seq - b.seq)[0]
    : undefined
  if (newer)
    return {
      state: 'superseded',
      reason: `Muster's view (no hub event says so): ${newer.from_agent} sent a newer patch in this thread (${newer.id})`,
      event_id: newer.id,
      by: newer.from_agent,
      at: newer.created_at,
      byMuster: true
    }
  if (refusedBecause) return { state: 'refused', reason: refusedBecause, event_id: null, by: null, at: null, byMuster: true }
  return { state: 'waiting', reason: 'waiting for the operator: verify, then apply', event_id: null, by: null, at: null, byMuster: false }
}
