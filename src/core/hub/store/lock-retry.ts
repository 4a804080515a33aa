/**
 * Waiting for a locked hub without blocking the event loop. SQLite's own busy handler sleeps
 * inside the call (a 10 s busy timeout froze `muster serve` and the Electron main process for
 * 10 s while another process held the write lock). Instead each attempt gets a busy timeout of a
 * few milliseconds, and between attempts we yield with `setTimeout`, backing off, until the
 * overall deadline (MemPalace's 10 s) passes. A write is one `BEGIN IMMEDIATE` transaction, so a
 * busy attempt wrote nothing and is safe to repeat.
 *
 * Why not a worker thread: the only thing that stalled the loop was SQLite sleeping in its busy
 * handler; the queries themselves are budgeted well under 50 ms on 1,000,000 rows (bench). A
 * worker would add an entry point to both bundles (electron-vite main, esbuild CLI) and copy every
 * page across threads, for no gain once the sleep is gone (`npm run bench` measures `app.info`
 * while a write waits on a locked hub).
 */

/**
 * SQLite's busy wait per attempt. Short contention (another writer's commit takes a millisecond
 * or two) is absorbed without a yield; one attempt never holds the event loop longer than this.
 */
export const ATTEMPT_BUSY_MS = 5
/** First pause between attempts; doubled up to `MAX_PAUSE_MS`. */
const FIRST_PAUSE_MS = 5
/** Longest pause: a freed lock is noticed within 50 ms, and attempts cost at most ~10% of the loop. */
const MAX_PAUSE_MS = 50

/** True for SQLite's "database is locked / busy" errors (any extended code). */
export function isLockError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/**
 * Runs `attempt` until it does not fail with a lock error or `timeoutMs` has passed, yielding to
 * the event loop between attempts. The last lock error (or any other error) is rethrown as is.
 */
export async function retryWhileLocked<T>(attempt: () => T, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let pause = FIRST_PAUSE_MS
  for (;;) {
    try {
      return attempt()
    } catch (err) {
      const left = deadline - Date.now()
      if (!isLockError(err) || left <= 0) throw err
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)))
      pause = Math.min(MAX_PAUSE_MS, pause * 2)
    }
  }
}
