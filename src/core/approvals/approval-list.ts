/**
 * One hub's approvals, read through the `HubPort` interface only (so local and remote hubs work
 * alike): the requests of the last day, and at least the newest 500 (newest first, paged with
 * upstream's `before_event_id`), then every decision and receipt after the oldest of them (paged with
 * `since_event_id`), folded per thread.
 */
import type { ApprovalItem } from '../../shared/contract/approvals-types'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubPort } from '../hub'
import { foldApproval } from './approval-events'
import type { DecisionTrust } from './decision-trust'
import type { PresenceJudge } from './presence-judge'

/** Every request of this age is examined (no hook waits longer: `--timeout-ms` is capped at a day). */
export const REQUEST_HORIZON_MS = 24 * 3600 * 1000
/** Beyond the horizon, requests are read only until this many were (for the history). */
const HISTORY_REQUESTS = 500
/** At most this many requests are examined per hub (the newest). */
export const MAX_REQUESTS = 5_000
const PAGE = 500

/** One hub's requests folded: pending oldest first, the rest newest first. */
export interface HubApprovals {
  pending: ApprovalItem[]
  decided: ApprovalItem[]
}

/** Reads and folds the approvals of one hub. */
export async function listHubApprovals(
  hub: HubPort,
  where: { hub: string; palace: string },
  trust: DecisionTrust,
  now = Date.now(),
  presence?: PresenceJudge
): Promise<HubApprovals> {
  const requests: HubEventEnvelope[] = []
  let before: string | undefined
  for (;;) {
    const page = await hub.list({
      type: EventType.approvalRequest,
      order: 'desc',
      limit: PAGE,
      ...(before ? { before_event_id: before } : {})
    })
    requests.push(...page.events)
    const last = page.events[page.events.length - 1]
    if (!page.has_more || !last || requests.length >= MAX_REQUESTS) break
    if (requests.length >= HISTORY_REQUESTS && now - Date.parse(last.created_at) > REQUEST_HORIZON_MS) break
    before = last.id
  }
  if (requests.length === 0) return { pending: [], decided: [] }
  const oldest = requests[requests.length - 1]!
  const byThread = new Map<string, HubEventEnvelope[]>()
  let since = oldest.id
  for (;;) {
    const page = await hub.list({
      type: [EventType.approvalDecision, EventType.approvalReceipt],
      since_event_id: since,
      order: 'asc',
      limit: PAGE
    })
    for (const d of page.events) {
      const key = d.correlation_id ?? ''
      const list = byThread.get(key)
      if (list) list.push(d)
      else byThread.set(key, [d])
    }
    if (!page.has_more || page.events.length === 0) break
    since = page.events[page.events.length - 1]!.id
  }
  // allows that need presence are judged by their proofs, checked here (a fold is synchronous)
  const judged = presence
    ? trust.withPresence(
        await presence.oracle(
          hub,
          requests.map((r) => ({ request: r, decisions: byThread.get(r.correlation_id ?? '') ?? [] }))
        )
      )
    : trust
  const items = requests.map((r) => foldApproval(r, byThread.get(r.correlation_id ?? '') ?? [], where, judged, now))
  return {
    pending: items.filter((i) => i.state === 'pending').reverse(),
    decided: items.filter((i) => i.state !== 'pending')
  }
}
