/**
 * Long-poll for matching events (upstream `wait_events`): returns existing matches at once when
 * there is no cursor; otherwise polls with backoff 0.25 s -> 1 s until a match or the timeout.
 */
import type { HubConnection } from './hub-connection'
import type { WaitResult } from '../hub-port'
import { listOn, tipOn, type ListOptions } from './reader'

/** Default wait: 60 s. */
export const DEFAULT_WAIT_MS = 60_000
/** Longest wait: 300 s. */
export const MAX_WAIT_MS = 300_000
/** First poll delay, doubled up to `MAX_POLL_MS`. */
export const FIRST_POLL_MS = 250
/** Longest poll delay. */
export const MAX_POLL_MS = 1_000

export type { WaitResult }

/** Options of `waitEvents`: list options plus the timeout and an abort signal. */
export interface WaitOptions extends ListOptions {
  timeout_ms?: number
  signal?: AbortSignal
}

/** Clamps a wait timeout to 0..300000 (default 60000). */
export function clampTimeout(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms)) return DEFAULT_WAIT_MS
  return Math.min(Math.max(0, Math.floor(ms)), MAX_WAIT_MS)
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done(): void {
      clearTimeout(t)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })

/** Waits for events matching `opts` (an unknown cursor fails at once with the upstream message). */
export async function waitEvents(conn: HubConnection, opts: WaitOptions = {}): Promise<WaitResult> {
  const { timeout_ms, signal, ...list } = opts
  const deadline = Date.now() + clampTimeout(timeout_ms)
  let query: ListOptions = list
  const first = await conn.readAsync((db, shape) => {
    const page = listOn(db, shape, list)
    if (!list.since_event_id && page.events.length === 0) {
      // No cursor and nothing yet: wait for rows after the current tip.
      const tip = tipOn(db, shape)
      if (tip) query = { ...list, since_event_id: tip.id }
    }
    return page
  })
  if (first.events.length) return { timed_out: false, events: first.events }
  let delay = FIRST_POLL_MS
  for (;;) {
    const remaining = deadline - Date.now()
    if (remaining <= 0 || signal?.aborted) return { timed_out: true, events: [] }
    await sleep(Math.min(delay, remaining), signal)
    const page = await conn.readAsync((db, shape) => listOn(db, shape, query))
    if (page.events.length) return { timed_out: false, events: page.events }
    delay = Math.min(MAX_POLL_MS, delay * 2)
  }
}
