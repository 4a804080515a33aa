/**
 * The timeline's query (filters, order, hub) and its place in the URL hash:
 * `#/timeline?type=task.request&to_agent=win-codex&order=asc&hub=…`, so a reload keeps it and
 * the Overview can link straight to a filtered view.
 */

/** Filterable fields, in filter-bar order (names as the hub spells them). */
export const FILTER_FIELDS = ['type', 'from_agent', 'to_agent', 'correlation_id', 'status', 'stream', 'room', 'topic', 'text'] as const

/** One filter field. */
export type FilterField = (typeof FILTER_FIELDS)[number]

/** Filter values; empty strings mean "no filter". */
export type TimelineFilters = Partial<Record<FilterField, string>>

/** Display order: newest first (desc) or oldest first (asc). */
export type TimelineOrder = 'desc' | 'asc'

/** Everything that defines which rows the list shows. */
export interface TimelineQuery {
  filters: TimelineFilters
  order: TimelineOrder
  /** Registered hub name, or null for the default one. */
  hub: string | null
}

/** Labels of the filter fields. */
export const FILTER_LABELS: Record<FilterField, string> = {
  type: 'Type',
  from_agent: 'From',
  to_agent: 'To',
  correlation_id: 'Correlation',
  status: 'Status',
  stream: 'Stream',
  room: 'Room',
  topic: 'Topic',
  text: 'Body text'
}

/** An empty query: newest first, default hub. */
export const EMPTY_QUERY: TimelineQuery = { filters: {}, order: 'desc', hub: null }

/** The filters that are set, trimmed (text keeps inner spaces). */
export function activeFilters(filters: TimelineFilters): TimelineFilters {
  const out: TimelineFilters = {}
  for (const f of FILTER_FIELDS) {
    const v = filters[f]
    if (v !== undefined && v.trim() !== '') out[f] = f === 'text' ? v : v.trim()
  }
  return out
}

/** True when no filter is set. */
export function noFilters(filters: TimelineFilters): boolean {
  return Object.keys(activeFilters(filters)).length === 0
}

/** Reads a query from a hash such as `#/timeline?type=x`; null when the hash has no query part. */
export function queryFromHash(hash: string): TimelineQuery | null {
  const q = hash.indexOf('?')
  if (q < 0) return null
  const params = new URLSearchParams(hash.slice(q + 1))
  const filters: TimelineFilters = {}
  for (const f of FILTER_FIELDS) {
    const v = params.get(f)
    if (v) filters[f] = v
  }
  return { filters, order: params.get('order') === 'asc' ? 'asc' : 'desc', hub: params.get('hub') || null }
}

/** The hash of a query (`#/timeline` when everything is default). */
export function hashOfQuery(query: TimelineQuery): string {
  const params = new URLSearchParams()
  const active = activeFilters(query.filters)
  for (const f of FILTER_FIELDS) if (active[f]) params.set(f, active[f]!)
  if (query.order === 'asc') params.set('order', 'asc')
  if (query.hub) params.set('hub', query.hub)
  const s = params.toString()
  return s ? `#/timeline?${s}` : '#/timeline'
}

/** A stable string of the query, used as the key of its page window. */
export function queryKeyOf(query: TimelineQuery): string {
  return JSON.stringify([query.hub, query.order, activeFilters(query.filters)])
}
