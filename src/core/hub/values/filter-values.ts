/**
 * Filter values as every hub implementation reads them (pure: no storage), and the one
 * validation of a read query that the hub service applies for the CLI, the UI and HTTP alike:
 * upstream `list_events` sanitises every filter it is given (and `sanitize_watch_spec` every
 * watch value) with the writers' own rules, so a bad value is an error, never an empty result.
 */
import type { ListQuery, OneOrMany } from '../hub-port'
import { pyRepr } from '../../text'
import { HubValidationError, validateEventType, validateIsoTemporal, validateRouting, validateStatus } from './validate'

/** `list` defaults to 50 events. */
export const DEFAULT_LIMIT = 50
/** The largest page `list` returns (larger limits are clamped, as upstream does). */
export const MAX_LIMIT = 500

/** Values of a OneOrMany filter, empty strings dropped, duplicates removed; undefined when absent. */
export function valuesOf(v: OneOrMany | undefined): string[] | undefined {
  if (v === undefined) return undefined
  const list = (typeof v === 'string' ? [v] : [...v]).filter((s) => s !== '')
  return list.length ? [...new Set(list)] : undefined
}

/** The routing filters (trimmed, <= 256 characters, no control characters), by field name. */
export const ROUTING_FILTERS = ['stream', 'room', 'topic', 'to_agent', 'from_agent', 'correlation_id', 'exclude_from_agent'] as const

/** Validates each value of a filter with `rule` (empty values mean "absent"); undefined when none is left. */
function sanitizeValues(v: OneOrMany | undefined, rule: (value: string) => string | null): OneOrMany | undefined {
  const values = valuesOf(v)
  if (!values) return undefined
  const out = [...new Set(values.map(rule).filter((x): x is string => x !== null))]
  if (out.length === 0) return undefined
  return typeof v === 'string' ? out[0] : out
}

/** The filters of a watch or list, validated: types and statuses checked, routing values trimmed. */
export function sanitizeFilters<F extends { [K in (typeof ROUTING_FILTERS)[number] | 'type' | 'status']?: OneOrMany }>(f: F): F {
  const out: F = { ...f }
  for (const field of ROUTING_FILTERS) {
    if (f[field] !== undefined) out[field] = sanitizeValues(f[field], (v) => validateRouting(v, field, false)) as F[typeof field]
  }
  if (f.type !== undefined) out.type = sanitizeValues(f.type, validateEventType) as F['type']
  if (f.status !== undefined) out.status = sanitizeValues(f.status, validateStatus) as F['status']
  for (const key of Object.keys(out) as (keyof F)[]) if (out[key] === undefined) delete out[key]
  return out
}

/**
 * A list/wait query validated like upstream `list_events`: every filter value (see
 * `sanitizeFilters`), the cursors (trimmed), `since_created_at` (a date or UTC datetime), `order`
 * (asc|desc) and `limit` (a positive integer, default 50, clamped to 500). Throws
 * `HubValidationError` with upstream's message.
 */
export function sanitizeListQuery<Q extends ListQuery>(q: Q): Q {
  const out = sanitizeFilters(q)
  for (const cursor of ['since_event_id', 'before_event_id'] as const) {
    const v = q[cursor] === undefined ? null : validateRouting(q[cursor], cursor, false)
    if (v === null) delete out[cursor]
    else out[cursor] = v
  }
  const since = validateIsoTemporal(q.since_created_at, 'since_created_at')
  if (since === null) delete out.since_created_at
  else out.since_created_at = since
  const order = q.order === undefined || q.order === null ? 'asc' : typeof q.order === 'string' ? q.order.toLowerCase().trim() : q.order
  if (order !== 'asc' && order !== 'desc') throw new HubValidationError(`order=${pyRepr(order)} must be 'asc' or 'desc'`)
  out.order = order
  const limit = q.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1) throw new HubValidationError('limit must be a positive integer')
  out.limit = Math.min(limit, MAX_LIMIT)
  return out
}
