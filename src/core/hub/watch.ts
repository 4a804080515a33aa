/**
 * `watch` (upstream `watch_events`, `read_watch_state`, `write_watch_cursor`): repeated filters
 * OR within a field and AND across fields, an author exclusion beats every positive match, the
 * cursor advances past every examined event and persists in a state file written via tmp + rename.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeDirSync } from '../make-dir'
import type { HubEvent } from '../../shared/contract/hub-types'
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import { valuesOf } from './filter-values'
import type { EventFilters, Hub } from './hub-port'
import { formatCreatedAt } from './ids'

/** Watch filters: every field may repeat (OR); `to_agent` also matches `'*'`. */
export type WatchFilters = Omit<EventFilters, 'text' | 'since_created_at'>

const FIELDS = ['stream', 'room', 'topic', 'type', 'from_agent', 'correlation_id', 'status'] as const

/** `--agent X` = `--to-agent X --exclude-from-agent X`, merged into explicit filters. */
export function agentFilters(agent: string, f: WatchFilters = {}): WatchFilters {
  return {
    ...f,
    to_agent: [...(valuesOf(f.to_agent) ?? []), agent],
    exclude_from_agent: [...(valuesOf(f.exclude_from_agent) ?? []), agent]
  }
}

/** True when an event passes the watch filters (exclusion first; NULL never matches a filter). */
export function matchesWatch(e: HubEvent, f: WatchFilters): boolean {
  if (valuesOf(f.exclude_from_agent)?.includes(e.from_agent)) return false
  const to = valuesOf(f.to_agent)
  if (to && (e.to_agent === null || (e.to_agent !== BROADCAST && !to.includes(e.to_agent)))) return false
  for (const field of FIELDS) {
    const values = valuesOf(f[field])
    const v = e[field]
    if (values && (v === null || !values.includes(v))) return false
  }
  return true
}

/** The state file's content (upstream shape). */
export interface WatchState {
  cursor: string | null
  updated_at: string
  agent: string | null
}

/** A read state file: missing, unusable (empty/corrupt: replay from the start), or a state. */
export type StateRead = { kind: 'missing' } | { kind: 'corrupt'; reason: string } | { kind: 'ok'; state: WatchState }

/** Reads a watch state file. */
export function readWatchState(file: string): StateRead {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    return { kind: 'corrupt', reason: (err as Error).message }
  }
  if (!text.trim()) return { kind: 'corrupt', reason: 'empty state file' }
  try {
    const v = JSON.parse(text) as Partial<WatchState> | null
    if (!v || typeof v !== 'object' || (v.cursor !== null && v.cursor !== undefined && typeof v.cursor !== 'string')) {
      return { kind: 'corrupt', reason: 'state file is not {"cursor": ...}' }
    }
    return { kind: 'ok', state: { cursor: v.cursor ?? null, updated_at: String(v.updated_at ?? ''), agent: typeof v.agent === 'string' ? v.agent : null } }
  } catch (err) {
    return { kind: 'corrupt', reason: (err as Error).message }
  }
}

/** Writes the state file atomically (tmp + rename), creating its folder. */
export function writeWatchState(file: string, cursor: string | null, agent: string | null): WatchState {
  const state: WatchState = { cursor, updated_at: formatCreatedAt(), agent }
  makeDirSync(dirname(file), { mode: 0o700 })
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(state) + '\n')
  renameSync(tmp, file)
  return state
}

/** Options of `runWatch`. */
export interface WatchRunOptions {
  filters: WatchFilters
  /** Start after this event id; null = from the first event. */
  cursor: string | null
  /** Keep going after a match (`--follow`). */
  follow?: boolean
  /** Stop with outcome `idle` after this long without a match. */
  idleExitMs?: number
  /** Delay between polls (default 200 ms). */
  pollMs?: number
  signal?: AbortSignal
  /** Called with every batch of matches (follow mode), before the cursor is saved. */
  onMatches?: (events: HubEvent[]) => void
  /** Called whenever the cursor moved past examined events. */
  onCursor?: (cursor: string) => void
}

/** How a watch ended, with the matches (non-follow) and the final cursor. */
export interface WatchOutcome {
  outcome: 'match' | 'idle' | 'interrupted'
  events: HubEvent[]
  cursor: string | null
}

const BATCH = 500

/**
 * Watches the hub until a match (or forever with `follow`), an idle timeout, or an abort. Every
 * event after the cursor is examined (filters apply here, so the cursor passes non-matches too).
 */
export async function runWatch(hub: Hub, o: WatchRunOptions): Promise<WatchOutcome> {
  let cursor = o.cursor
  let lastMatch = Date.now()
  const pollMs = o.pollMs ?? 200
  for (;;) {
    const { events: batch } = await hub.list({ ...(cursor ? { since_event_id: cursor } : {}), order: 'asc', limit: BATCH })
    if (batch.length) {
      const last = batch[batch.length - 1]!
      cursor = last.id
      const matches = batch.filter((e) => matchesWatch(e, o.filters))
      if (matches.length && o.follow) o.onMatches?.(matches)
      o.onCursor?.(cursor)
      if (matches.length) {
        if (!o.follow) return { outcome: 'match', events: matches, cursor }
        lastMatch = Date.now()
      }
      if (batch.length === BATCH) continue
    }
    if (o.signal?.aborted) return { outcome: 'interrupted', events: [], cursor }
    if (o.idleExitMs !== undefined && Date.now() - lastMatch >= o.idleExitMs) return { outcome: 'idle', events: [], cursor }
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(t)
        o.signal?.removeEventListener('abort', done)
        resolve()
      }
      const t = setTimeout(done, pollMs)
      o.signal?.addEventListener('abort', done, { once: true })
    })
  }
}
