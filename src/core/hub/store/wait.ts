/**
 * Long-poll for matching events (upstream `wait_events`): returns existing matches at once when
 * there is no cursor; otherwise polls with backoff 0.25 s -> 1 s until a match or the timeout.
 */
import type { Db } from '../../sqlite'
import type { HubConnection, HubShape } from './hub-connection'
import type { WaitResult } from '../hub-port'
import { Frontier } from './frontier'
import { anchorRowid, clampLimit, listOn, previewEvent, toEvents, type ListedEvent, type ListOptions } from './reader'

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

/**
 * Waits for events matching `opts` (an unknown cursor fails at once with the upstream message).
 * After the first look, new rows are found by a `Frontier` (from the cursor, or from the tip when
 * there is none), so a hub with a row at the top rowid still wakes a waiter when rows arrive.
 */
export async function waitEvents(conn: HubConnection, opts: WaitOptions = {}): Promise<WaitResult> {
  const { timeout_ms, signal, ...list } = opts
  const deadline = Date.now() + clampTimeout(timeout_ms)
  const seqCursors = list.since_seq !== undefined || list.before_seq !== undefined || list.before_event_id !== undefined
  let frontier: Frontier | null = null
  const first = await conn.readAsync((db, shape) => {
    const page = listOn(db, shape, list)
    if (page.events.length === 0 && !seqCursors) {
      frontier = list.since_event_id ? Frontier.after(db, anchorRowid(db, list.since_event_id, 'since_event_id')) : Frontier.atTip(db)
    }
    return page
  })
  if (first.events.length) return { timed_out: false, events: first.events }
  const limit = clampLimit(list.limit)
  const poll = (db: Db, shape: HubShape): ListedEvent[] => {
    if (!frontier) return listOn(db, shape, list).events
    const events = toEvents(
      db,
      shape,
      frontier.next(db, shape, list, limit).map((r) => r.row)
    ).slice(0, limit)
    const shown = list.preview ? events.map(previewEvent) : events
    return list.order === 'desc' ? shown.reverse() : shown
  }
  let delay = FIRST_POLL_MS
  for (;;) {
    const remaining = deadline - Date.now()
    if (remaining <= 0 || signal?.aborted) return { timed_out: true, events: [] }
    await sleep(Math.min(delay, remaining), signal)
    const events = await conn.readAsync(poll)
    if (events.length) return { timed_out: false, events }
    delay = Math.min(MAX_POLL_MS, delay * 2)
  }
}
