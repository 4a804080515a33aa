/**
 * Snoozed approval requests in Muster's state DB (table `approval_snoozes`, migration 8): "Not
 * now" hides a pending request until a chosen time without deciding it, so the agent keeps
 * waiting and the request comes back by itself. Keyed by the request's `appr_` correlation id.
 */
import type { Db } from '../sqlite'

/** The longest snooze: a day (a request that waits longer has timed out anyway). */
export const MAX_SNOOZE_MINUTES = 24 * 60

/** Snoozes of one state DB. */
export class SnoozeStore {
  constructor(private readonly db: Db) {}

  /** Snoozes a request until `until` (replacing an earlier snooze). */
  snooze(correlationId: string, until: Date, now = new Date()): void {
    this.db
      .prepare(
        'INSERT INTO approval_snoozes (correlation_id, until, created_at) VALUES (?, ?, ?) ON CONFLICT (correlation_id) DO UPDATE SET until = excluded.until, created_at = excluded.created_at'
      )
      .run(correlationId, until.toISOString(), now.toISOString())
  }

  /** Wakes a request now. */
  wake(correlationId: string): void {
    this.db.prepare('DELETE FROM approval_snoozes WHERE correlation_id = ?').run(correlationId)
  }

  /**
   * The snoozes still running at `now` (correlation id to until). Expired ones are dropped when the
   * state DB can be written; a read-only home still reads (a read never needs the prune).
   */
  active(now = new Date()): Map<string, string> {
    const at = now.toISOString()
    try {
      this.db.prepare('DELETE FROM approval_snoozes WHERE until <= ?').run(at)
    } catch (err) {
      if (!String((err as { code?: unknown }).code ?? '').startsWith('SQLITE_READONLY')) throw err
    }
    const rows = this.db.prepare('SELECT correlation_id, until FROM approval_snoozes WHERE until > ?').all(at) as {
      correlation_id: string
      until: string
    }[]
    return new Map(rows.map((r) => [r.correlation_id, r.until]))
  }
}
