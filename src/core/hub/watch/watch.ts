/**
 * `watch` filters (upstream logstream.py `normalize_watch_values`, `sanitize_watch_spec`,
 * `event_matches_watch`, `pushdown_watch_filters`): every field may repeat (OR within a field,
 * AND across fields), every value is validated with the writers' rules before anything runs, an
 * author exclusion beats every positive match, and single-valued fields narrow the SQL query.
 */
import type { HubEvent } from '../../../shared/contract/hub-types'
import { BROADCAST } from '../../../shared/contract/hub-vocabulary'
import { sanitizeFilters, valuesOf } from '../values/filter-values'
import type { EventFilters, ListQuery } from '../hub-port'

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

/** Validates every value (upstream `sanitize_watch_spec`): bad types/statuses are errors, routing values trimmed. */
export function sanitizeWatchFilters(f: WatchFilters): WatchFilters {
  return sanitizeFilters(f)
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

/**
 * The part of the filters the hub's query can evaluate (upstream `pushdown_watch_filters`): each
 * field with exactly one value. Only an optimisation for matching, but it decides the cursor:
 * the cursor moves past the events this query returns, as upstream's does.
 */
export function pushdownFilters(f: WatchFilters): Pick<ListQuery, (typeof FIELDS)[number] | 'to_agent'> {
  const out: Record<string, string> = {}
  for (const field of [...FIELDS, 'to_agent'] as const) {
    const values = valuesOf(f[field])
    if (values?.length === 1) out[field] = values[0]!
  }
  return out
}
