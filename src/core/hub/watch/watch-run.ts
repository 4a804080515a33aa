/**
 * `mempalace logstream watch` in the core (upstream cli/cmd_coord.py `_watch_spec`,
 * `_logstream_watch` and logstream.py `Logstream.watch_events`): every bad input is refused
 * before anything is polled or written; the start is decided once (explicit `--since-event-id`,
 * the stored cursor, the tip on a first run, or the beginning) and verified before it is
 * written; a stored cursor that vanished replays from the start; then long-polls of at most
 * `limit` events (single-valued filters pushed into the query) until a match, the idle deadline
 * (0 = wait forever) or an abort, checkpointing the cursor as it goes.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { compareCodePoints } from '../../../shared/py-json'
import { pyOsErrorText } from '../../text'
import { sanitizeListQuery, valuesOf } from '../values/filter-values'
import type { HubPort } from '../hub-port'
import type { PalaceEnv } from '../locate'
import { HubValidationError } from '../values/validate'
import { agentFilters, matchesWatch, pushdownFilters, sanitizeWatchFilters, type WatchFilters } from './watch'
import { readWatchState, resolveWatchStateFile, writeWatchCursor } from './watch-state'

/** Upstream's default long-poll per iteration: the server maximum, 300 s. */
export const DEFAULT_POLL_TIMEOUT_MS = 300_000
/** Upstream's default batch: 50 events per poll. */
export const DEFAULT_WATCH_LIMIT = 50

/** What starting a watch said, for the operator (the CLI prints them on stderr). */
export type WatchNotice =
  | { kind: 'vanished'; text: string }
  | { kind: 'watching'; text: string }
  | { kind: 'tip'; text: string }
  | { kind: 'corrupt'; text: string }

/** A watch request: the flags of `watch`, as values. */
export interface WatchRequest {
  filters: WatchFilters
  /** `--agent`: adds `to_agent` and `exclude_from_agent`, names the default state file. */
  agent?: string
  /** `--state-file`: a path, `''` for none; undefined = `~/.mempalace/watch/<agent>.json` with an agent. */
  stateFile?: string
  sinceEventId?: string
  fromStart?: boolean
  follow?: boolean
  /** Exit after this long without a match; 0 (the default) waits forever. */
  idleExitMs?: number
  /** Long-poll length per iteration (default 300000). */
  pollTimeoutMs?: number
  /** Events per poll (default 50). */
  limit?: number
  /** Where `~` is (the default state file). */
  env?: PalaceEnv
  signal?: AbortSignal
  /** Notices in upstream's order and words (`watching` is for human output only). */
  onNotice?: (notice: WatchNotice) => void
  /** A batch of matches to print; the cursor is checkpointed after this returns. */
  onMatches: (events: HubEvent[], cursor: string | null) => void
}

/** How a watch ended: a match (not following), the idle deadline, or an abort. */
export interface WatchOutcome {
  outcome: 'match' | 'idle' | 'interrupted'
  /** Any batch matched (a following watch that then went idle exits 0 upstream). */
  matchedAny: boolean
  cursor: string | null
}

const invalid = (message: string): ApiError => new ApiError(message, 'invalid_input')

/** Upstream `_watch_spec`'s checks of the numeric flags, then the filters. */
function checkRequest(r: WatchRequest): WatchFilters {
  if (r.pollTimeoutMs !== undefined && !(r.pollTimeoutMs > 0)) throw invalid('--poll-timeout-ms must be a positive number of milliseconds')
  if (r.limit !== undefined && !(Number.isInteger(r.limit) && r.limit >= 1)) throw invalid('--limit must be a positive integer')
  if (r.idleExitMs !== undefined && !(r.idleExitMs >= 0))
    throw invalid('--idle-exit-ms must be zero (wait forever) or a positive number of milliseconds')
  try {
    return sanitizeWatchFilters(r.agent ? agentFilters(r.agent, r.filters) : r.filters)
  } catch (err) {
    if (err instanceof HubValidationError) throw invalid(err.message)
    throw err
  }
}

/** True when `cursor` names an event of the hub (upstream lists `since_event_id=cursor, limit=1`). */
async function cursorError(hub: HubPort, cursor: string): Promise<string | null> {
  try {
    await hub.list(sanitizeListQuery({ since_event_id: cursor, limit: 1 }))
    return null
  } catch (err) {
    if (err instanceof HubValidationError || (err instanceof ApiError && err.code === 'not_found')) return err.message
    throw err
  }
}

/** Runs a watch on `hub` until a match (unless following), the idle deadline or an abort. */
export async function watchHub(hub: HubPort, r: WatchRequest): Promise<WatchOutcome> {
  let stateFile: string | null
  try {
    stateFile = resolveWatchStateFile(r.stateFile, r.agent, r.env)
  } catch (err) {
    if (err instanceof HubValidationError) throw invalid(err.message)
    throw err
  }
  const spec = checkRequest(r)
  const notice = (n: WatchNotice): void => r.onNotice?.(n)
  const agent = r.agent ?? null
  const state = readWatchState(stateFile)
  let cursor = r.sinceEventId || state.cursor
  let skippedFrom: string | null = null
  if (cursor === null && !r.fromStart && state.condition === 'absent') {
    // A first run starts at the tip, like the SSE live tail: a watcher is for what arrives from now on.
    cursor = (await hub.tip())?.id ?? null
    skippedFrom = cursor
  }
  if (cursor !== null) {
    // Verify the start before it is written anywhere: a typo must not be persisted and reloaded forever.
    const bad = await cursorError(hub, cursor)
    if (bad !== null) {
      if (r.sinceEventId) throw invalid(`${bad}. Nothing was written to the state file.`)
      notice({
        kind: 'vanished',
        text: `Stored cursor ${cursor} no longer exists in this log; replaying from the start rather than refusing to run.`
      })
      cursor = null
    }
  }
  if (stateFile && state.condition === 'absent') {
    try {
      writeWatchCursor(stateFile, cursor, agent, true)
    } catch (err) {
      throw invalid(
        `could not write the initial checkpoint to ${stateFile}: ${pyOsErrorText(err)}. ` +
          'Refusing to start: without it a restart would skip every event that arrives before then.'
      )
    }
  }
  const where = r.agent || [...(valuesOf(spec.to_agent) ?? [])].sort(compareCodePoints).join(', ') || 'everything'
  notice({ kind: 'watching', text: `Watching ${where} from ${cursor || 'now'}; Ctrl-C to stop.` })
  if (skippedFrom) {
    notice({
      kind: 'tip',
      text: `Starting at the tip (${skippedFrom}); earlier events are not replayed. Use --from-start to replay them, or sweep with \`muster events list\`.`
    })
  }
  if (state.condition === 'corrupt') {
    notice({
      kind: 'corrupt',
      text: `State file ${stateFile} is unreadable; replaying from the start rather than skipping to the tip, so nothing since the last good checkpoint is lost.`
    })
  }
  return poll(hub, r, spec, stateFile, agent, cursor)
}

/** The watch loop (upstream `watch_events` driven by `_logstream_watch`). */
async function poll(
  hub: HubPort,
  r: WatchRequest,
  spec: WatchFilters,
  stateFile: string | null,
  agent: string | null,
  start: string | null
): Promise<WatchOutcome> {
  const idleMs = r.idleExitMs && r.idleExitMs > 0 ? r.idleExitMs : null
  const pollMs = r.pollTimeoutMs ?? DEFAULT_POLL_TIMEOUT_MS
  const limit = r.limit ?? DEFAULT_WATCH_LIMIT
  const pushdown = pushdownFilters(spec)
  let deadline = idleMs === null ? null : Date.now() + idleMs
  let cursor = start
  let matchedAny = false
  for (;;) {
    if (r.signal?.aborted) return { outcome: 'interrupted', matchedAny, cursor }
    const timeout = deadline === null ? pollMs : Math.min(pollMs, deadline - Date.now())
    let matched: HubEvent[] = []
    if (timeout > 0) {
      const q = sanitizeListQuery({ ...pushdown, ...(cursor ? { since_event_id: cursor } : {}), limit })
      const { events } = await hub.wait({ ...q, timeout_ms: timeout, signal: r.signal })
      if (r.signal?.aborted) return { outcome: 'interrupted', matchedAny, cursor }
      if (events.length) {
        cursor = events[events.length - 1]!.id
        matched = (events as HubEvent[]).filter((e) => matchesWatch(e, spec))
      }
    }
    if (matched.length) {
      matchedAny = true
      if (idleMs !== null) deadline = Date.now() + idleMs
      r.onMatches(matched, cursor)
      // After the output: a kill between the two replays the batch instead of skipping it.
      writeWatchCursor(stateFile, cursor, agent)
      if (!r.follow) return { outcome: 'match', matchedAny, cursor }
      continue
    }
    writeWatchCursor(stateFile, cursor, agent)
    if (deadline !== null && Date.now() >= deadline) return { outcome: 'idle', matchedAny, cursor }
  }
}
