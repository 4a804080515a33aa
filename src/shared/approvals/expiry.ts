/**
 * When a request without a decision stops counting as waiting: its hook gave up at
 * `created_at + timeout_ms` (and records a timeout then); past that plus a grace for that record,
 * or after a day when the timeout is unknown, nobody waits for it any more (the hook died).
 * One rule for the inbox and the Overview's needs-me.
 */

/** Grace after a hook's timeout for its own timeout record to land. */
export const EXPIRY_GRACE_MS = 30_000
/** A request without a known timeout counts as expired after a day. */
export const UNKNOWN_TIMEOUT_EXPIRY_MS = 24 * 3600 * 1000

/** The instant (ms) after which an undecided request is expired. */
export function expiryDeadline(createdAt: string, timeoutMs: unknown): number {
  const t = typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) ? timeoutMs + EXPIRY_GRACE_MS : UNKNOWN_TIMEOUT_EXPIRY_MS
  return Date.parse(createdAt) + t
}
