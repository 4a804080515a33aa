/** Wording of the Approvals screen: waiting times, decisions and who made them. */
import type { ApprovalDecisionInfo, ApprovalItem } from '../../../../shared/api'
import { ALLOWLIST_DECIDER_PREFIX, DECIDED_BY_TIMEOUT } from '../../../../shared/api'

/** "42 s", "3 min 05 s", "1 h 02 min", "2 d 3 h". */
export function formatWait(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`
  const h = Math.floor(m / 60)
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

/** How long a request waited: until its decision, or until now. */
export function waitedMs(item: Pick<ApprovalItem, 'created_at' | 'decision'>, now: number): number {
  const end = item.decision ? Date.parse(item.decision.created_at) : now
  return end - Date.parse(item.created_at)
}

/** Who decided, in words: the operator's id, "allowlist rule X", "timeout". */
export function deciderLabel(d: Pick<ApprovalDecisionInfo, 'decided_by'>): string {
  if (d.decided_by.startsWith(ALLOWLIST_DECIDER_PREFIX)) return `allowlist rule ${d.decided_by.slice(ALLOWLIST_DECIDER_PREFIX.length)}`
  if (d.decided_by === DECIDED_BY_TIMEOUT) return 'timeout (nobody answered)'
  return d.decided_by
}

/** The label of a request's state. */
export const STATE_LABEL: Record<ApprovalItem['state'], string> = {
  pending: 'Waiting',
  allow: 'Allowed',
  deny: 'Denied',
  timeout: 'Timed out',
  expired: 'Expired'
}

/** Seconds until a pending request's hook stops waiting, or null. */
export function secondsLeft(item: Pick<ApprovalItem, 'expires_at'>, now: number): number | null {
  return item.expires_at ? Math.round((Date.parse(item.expires_at) - now) / 1000) : null
}
