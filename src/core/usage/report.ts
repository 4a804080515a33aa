/**
 * A session's usage report for the hub (src/shared/contract/usage-event.ts): all of the session's
 * tokens read on this machine, per model and per UTC hour, as one compact `usage.report` event in
 * MemPalace's envelope, so a Muster on another machine sees the session through the hub. Written
 * by the session hook's worker after it read the session's records.
 */
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import { MAX_REPORT_HOURS, USAGE_EVENT, type ReportHour, type UsageReportMetadata } from '../../shared/contract/usage-event'
import { addTokens, totalTokens, zeroTokens, type TokenCounts } from '../../shared/contract/tokens'
import { projectStream } from '../approvals'
import type { AppendInput } from '../hub'
import type { UsageStore } from './usage-store'

/** A session's report from the store (its local sources), or null when it has no tokens yet. */
export function sessionReport(
  store: UsageStore,
  s: { session_id: string; harness: string; machine: string; cwd: string },
  now = new Date()
): UsageReportMetadata | null {
  const rows = store
    .sessionHours(s.session_id)
    .filter((r) => r.harness === s.harness)
    .sort((a, b) => b.hour.localeCompare(a.hour) || a.model.localeCompare(b.model))
  if (!rows.length) return null
  const perHour = new Map<string, TokenCounts>()
  const models: Record<string, TokenCounts> = {}
  for (const r of rows) {
    addTokens((models[r.model] ??= zeroTokens()), r)
    const k = `${r.hour}\u0000${r.model}`
    addTokens(perHour.get(k) ?? perHour.set(k, zeroTokens()).get(k)!, r)
  }
  const entries = [...perHour.entries()].map(([k, t]): ReportHour => {
    const [hour, model] = k.split('\u0000') as [string, string]
    return [hour, model, t.input, t.output, t.cache_write, t.cache_read]
  })
  // the newest hours first; a session longer than the report holds has its oldest ones merged into the oldest kept (totals stay exact)
  if (entries.length > MAX_REPORT_HOURS) {
    const kept = entries.slice(0, MAX_REPORT_HOURS - 1)
    const rest = entries.slice(MAX_REPORT_HOURS - 1)
    const merged = rest.reduce((a, e) => addTokens(a, { input: e[2], output: e[3], cache_write: e[4], cache_read: e[5] }), zeroTokens())
    kept.push([rest[0]![0], 'earlier (all models)', merged.input, merged.output, merged.cache_write, merged.cache_read])
    entries.splice(0, entries.length, ...kept)
  }
  const skipped = store
    .sources()
    .filter((x) => x.session_id === s.session_id && x.harness === s.harness)
    .reduce((n, x) => n + x.skipped, 0)
  return {
    session_id: s.session_id,
    harness: s.harness,
    machine: s.machine,
    cwd: s.cwd,
    at: now.toISOString(),
    models,
    hours: entries,
    skipped
  }
}

/** The hub append of a report, from `agent`, in its project's stream. */
export function reportAppend(agent: string, project: string, m: UsageReportMetadata): AppendInput {
  const total = Object.values(m.models).reduce((n, t) => n + totalTokens(t), 0)
  const models = Object.keys(m.models).sort().join(', ')
  return {
    type: USAGE_EVENT.type,
    room: USAGE_EVENT.room,
    topic: USAGE_EVENT.topic,
    stream: projectStream(project),
    from_agent: agent,
    to_agent: BROADCAST,
    body: `${m.harness} session ${m.session_id.slice(0, 12)}: ${total.toLocaleString('en-US')} tokens (${models})`,
    metadata: { ...m }
  }
}
