/**
 * Usage reports (written by the session hook's worker after it read a session's records, read by
 * every Muster on the hub, so an operator sees agents on other machines): an ordinary hub event
 * `type=usage.report`, `room=status`, `topic=usage`, `to_agent='*'`, `stream=project/<slug>`,
 * `from_agent` = the agent the hooks report, body one line, and metadata
 * `{session_id, harness, machine, cwd, at, models: {<model>: tokens}, hours: [[hour, model, input,
 * output, cache_write, cache_read], …], skipped}`: the session's whole usage so far on that machine
 * (so the latest report of a session is all of it, and a lost report loses nothing), `hours` per
 * UTC hour (`YYYY-MM-DDTHH`), the newest ones first when a long session has more than fit.
 * Plain TypeScript (no Node): the core and the hooks' worker share it.
 */
import { tokenCount, type TokenCounts } from './tokens'

/** The event type, room and topic of a usage report. */
export const USAGE_EVENT = { type: 'usage.report', room: 'status', topic: 'usage' } as const

/** Most `hours` entries a report carries (metadata stays well under MemPalace's 64 KiB). */
export const MAX_REPORT_HOURS = 400

/** One hour of one model: `[hour, model, input, output, cache_write, cache_read]`. */
export type ReportHour = [string, string, number, number, number, number]

/** The metadata of a usage report. */
export interface UsageReportMetadata {
  session_id: string
  harness: string
  /** The machine whose records were read (its host name). */
  machine: string
  cwd: string
  /** When it was read (ISO). */
  at: string
  models: Record<string, TokenCounts>
  hours: ReportHour[]
  /** Lines of the session's records skipped as unreadable. */
  skipped: number
}

/** A usage report as read from an event. */
export interface UsageReport extends UsageReportMetadata {
  agent: string
  stream: string
  event_id: string
  seq: number
}

/** The fields of a hub event this module reads. */
interface EventLike {
  id: string
  seq: number
  type: string
  topic: string | null
  from_agent: string
  stream: string
  metadata: Record<string, unknown>
}

const HOUR_RE = /^\d{4}-\d{2}-\d{2}T\d{2}$/
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 256 ? v : null)

/** The usage report an event carries, or null when it is not a well-formed one (a bad entry drops the report). */
export function usageReportOf(e: EventLike): UsageReport | null {
  if (e.type !== USAGE_EVENT.type || e.topic !== USAGE_EVENT.topic) return null
  const m = e.metadata
  const session_id = str(m.session_id)
  const harness = str(m.harness)
  const at = str(m.at)
  if (!session_id || !harness || !at || Number.isNaN(Date.parse(at))) return null
  if (!Array.isArray(m.hours) || m.hours.length > MAX_REPORT_HOURS) return null
  const hours: ReportHour[] = []
  for (const h of m.hours as unknown[]) {
    if (!Array.isArray(h) || h.length !== 6 || typeof h[0] !== 'string' || !HOUR_RE.test(h[0]) || !str(h[1])) return null
    hours.push([h[0], h[1] as string, tokenCount(h[2]), tokenCount(h[3]), tokenCount(h[4]), tokenCount(h[5])])
  }
  const models: Record<string, TokenCounts> = {}
  if (m.models && typeof m.models === 'object' && !Array.isArray(m.models))
    for (const [k, v] of Object.entries(m.models as Record<string, unknown>)) {
      const t = (v ?? {}) as Record<string, unknown>
      models[k] = {
        input: tokenCount(t.input),
        output: tokenCount(t.output),
        cache_write: tokenCount(t.cache_write),
        cache_read: tokenCount(t.cache_read)
      }
    }
  return {
    agent: e.from_agent,
    stream: e.stream,
    event_id: e.id,
    seq: e.seq,
    session_id,
    harness,
    machine: str(m.machine) ?? 'unknown',
    cwd: typeof m.cwd === 'string' ? m.cwd : '',
    at,
    models,
    hours,
    skipped: tokenCount(m.skipped)
  }
}

/** Each session's latest report (per agent, harness, session and machine), from events in any order. */
export function foldUsageReports(events: readonly EventLike[]): UsageReport[] {
  const latest = new Map<string, UsageReport>()
  for (const e of events) {
    const r = usageReportOf(e)
    if (!r) continue
    const key = [r.agent, r.harness, r.session_id, r.machine].join('\u0000')
    const held = latest.get(key)
    if (!held || r.at > held.at || (r.at === held.at && r.seq > held.seq)) latest.set(key, r)
  }
  return [...latest.values()]
}
