/**
 * Muster's hub inputs as the arguments of upstream's MCP tools (spec/hub-logstream.md section 8):
 * only the arguments that carry a value are sent (an older hub rejects names it does not know, so
 * an unset `topic` must not be sent as null), and a list/wait query becomes one `mempalace_event_list`
 * or `mempalace_event_wait` call when the tools can express it (one value per filter, no body-text
 * filter, no author exclusion, no numeric seq cursor).
 */
import type { HubEventEnvelope } from '../../../shared/contract/hub-types'
import { valuesOf } from '../values/filter-values'
import type { ListQuery } from '../hub-port'
import { toHubEvent } from './remote-mirror'

/** How a hub filters events by author on list/wait: newer hubs `writer`, older ones `from_agent`. */
export type AuthorArg = 'writer' | 'from_agent'

/** The single-valued filters the tools accept under the same name. */
const SAME_NAME = [
  'stream',
  'room',
  'topic',
  'type',
  'to_agent',
  'correlation_id',
  'status',
  'since_created_at',
  'since_event_id',
  'before_event_id'
] as const

/** The defined, non-null entries of `input` (the tool arguments to send). */
export function definedArgs(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) out[k] = v
  return out
}

/**
 * The `mempalace_event_list` arguments of a query (order always explicit: upstream's default
 * depends on its version), or null when the tool cannot express it.
 */
export function listArgs(q: ListQuery, author: AuthorArg): Record<string, unknown> | null {
  if (q.text || valuesOf(q.exclude_from_agent) || q.since_seq !== undefined || q.before_seq !== undefined) return null
  const args: Record<string, unknown> = {}
  for (const key of SAME_NAME) {
    const values = valuesOf(q[key])
    if (!values) continue
    if (values.length > 1) return null
    args[key] = values[0]
  }
  const from = valuesOf(q.from_agent)
  if (from) {
    if (from.length > 1) return null
    args[author] = from[0]
  }
  args.order = q.order ?? 'asc'
  if (q.preview) args.preview = true
  return args
}

/** A listed envelope (a preview keeps its `body_truncated` / `body_length`). */
export function toEnvelope(raw: unknown): HubEventEnvelope {
  const e = toHubEvent(raw)
  const r = raw as { body_truncated?: unknown; body_length?: unknown }
  return r.body_truncated === true && typeof r.body_length === 'number' ? { ...e, body_truncated: true, body_length: r.body_length } : e
}

/** True when a -32602 error names `arg` as unknown (an older hub without that argument). */
export function rejectsArgument(err: unknown, arg: string): boolean {
  const e = err as { detail?: { rpcCode?: number }; message?: string }
  return e?.detail?.rpcCode === -32602 && new RegExp(`Unknown parameters? [^)]*'${arg}'`).test(e.message ?? '')
}
