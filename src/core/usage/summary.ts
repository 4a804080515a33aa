/**
 * Usage grouped for the screens and the CLI: tokens per model and UTC hour (this machine's
 * records, other machines' reports through a hub) summed per session, agent, project, harness,
 * model or local day, each with its estimate from the price table in use. A group whose models
 * are all unknown to the table has no estimate (null), and every unknown model is named with its
 * tokens: nothing is ever priced as 0 for want of a price. Pure.
 */
import { addTokens, totalTokens, zeroTokens, type TokenCounts } from '../../shared/contract/tokens'
import type { Spend, UsageGroup, UsageRow, UsageSessionInfo } from '../../shared/contract/usage-types'
import type { Prices } from './prices'

/** Tokens of one session, model and UTC hour, with who and where. */
export interface UsageFact extends TokenCounts {
  harness: string
  session_id: string
  agent: string | null
  project: string | null
  model: string
  /** UTC hour, `YYYY-MM-DDTHH`. */
  hour: string
  origin: 'local' | 'hub'
  machine: string | null
  /** Which record file (local) or report (hub) it comes from, and the lines skipped in it. */
  source: string
  skipped: number
}

/** The local day (`YYYY-MM-DD`) of a UTC hour for a UTC offset in minutes (JavaScript's `getTimezoneOffset`: positive west). */
export function localDay(hour: string, tzOffsetMin: number): string {
  const ms = Date.parse(`${hour}:00:00Z`) - tzOffsetMin * 60_000
  return new Date(ms).toISOString().slice(0, 10)
}

/** The local days from `since` to `until` (ISO instants), oldest first; empty past 31 days. */
export function windowDays(since: string, until: string, tzOffsetMin: number): string[] {
  const days: string[] = []
  const start = Date.parse(since) - tzOffsetMin * 60_000
  const end = Date.parse(until) - tzOffsetMin * 60_000
  if (!(end >= start) || end - start > 31 * 86_400_000) return days
  for (let d = new Date(new Date(start).toISOString().slice(0, 10)).getTime(); d <= end; d += 86_400_000)
    days.push(new Date(d).toISOString().slice(0, 10))
  return days
}

/** Sums tokens per model into a spend with its estimate. */
export function spendOf(byModel: ReadonlyMap<string, TokenCounts>, prices: Prices): Spend {
  const tokens = zeroTokens()
  let usd: number | null = null
  let unpriced = 0
  const unknown: string[] = []
  for (const [model, t] of byModel) {
    addTokens(tokens, t)
    const est = prices.estimate(model, t)
    if (est === null) {
      unpriced += totalTokens(t)
      unknown.push(model)
    } else usd = (usd ?? 0) + est
  }
  return { tokens, total: totalTokens(tokens), usd, unpriced_tokens: unpriced, unpriced_models: unknown.sort() }
}

/** The key of a fact in a grouping. */
function keyOf(f: UsageFact, by: UsageGroup, tzOffsetMin: number): string {
  switch (by) {
    case 'session':
      return `${f.harness}\u0000${f.session_id}`
    case 'agent':
      return f.agent ?? ''
    case 'project':
      return f.project ?? ''
    case 'harness':
      return f.harness
    case 'model':
      return f.model
    case 'day':
      return localDay(f.hour, tzOffsetMin)
  }
}

interface Group {
  models: Map<string, TokenCounts>
  days: Map<string, Map<string, TokenCounts>>
  sessions: Set<string>
  first: string
  last: string
  facts: UsageFact[]
}

/** Groups facts `by` a key; rows sorted by total tokens, most first (days: oldest first). */
export function groupUsage(
  facts: readonly UsageFact[],
  by: UsageGroup,
  prices: Prices,
  opts: { tzOffsetMin: number; days: readonly string[] }
): { rows: UsageRow[]; total: UsageRow } {
  const groups = new Map<string, Group>()
  const all: Group = { models: new Map(), days: new Map(), sessions: new Set(), first: '', last: '', facts: [] }
  const put = (g: Group, f: UsageFact): void => {
    addTokens(g.models.get(f.model) ?? g.models.set(f.model, zeroTokens()).get(f.model)!, f)
    const day = localDay(f.hour, opts.tzOffsetMin)
    const dm = g.days.get(day) ?? g.days.set(day, new Map()).get(day)!
    addTokens(dm.get(f.model) ?? dm.set(f.model, zeroTokens()).get(f.model)!, f)
    g.sessions.add(`${f.harness}\u0000${f.session_id}`)
    if (!g.first || f.hour < g.first) g.first = f.hour
    if (!g.last || f.hour > g.last) g.last = f.hour
    g.facts.push(f)
  }
  for (const f of facts) {
    const k = keyOf(f, by, opts.tzOffsetMin)
    let g = groups.get(k)
    if (!g) groups.set(k, (g = { models: new Map(), days: new Map(), sessions: new Set(), first: '', last: '', facts: [] }))
    put(g, f)
    put(all, f)
  }
  const rowOf = (key: string, g: Group, withSession: boolean): UsageRow => {
    const spend = spendOf(g.models, prices)
    const days = opts.days.map((day) => {
      const s = spendOf(g.days.get(day) ?? new Map(), prices)
      return { day, total: s.total, usd: s.usd }
    })
    const row: UsageRow = { key, ...spend, sessions: g.sessions.size, days }
    if (withSession) row.session = sessionInfo(g)
    return row
  }
  const rows = [...groups.entries()].map(([k, g]) => rowOf(by === 'session' ? k.split('\u0000')[1]! : k, g, by === 'session'))
  if (by === 'day') rows.sort((a, b) => a.key.localeCompare(b.key))
  else rows.sort((a, b) => b.total - a.total || a.key.localeCompare(b.key))
  return { rows, total: rowOf('total', all, false) }
}

/** A session's particulars from its facts (all of one session). */
function sessionInfo(g: Group): UsageSessionInfo {
  const f = g.facts[0]!
  const known = <T>(pick: (x: UsageFact) => T | null): T | null => g.facts.map(pick).find((v) => v !== null) ?? null
  const skipped = new Map<string, number>()
  for (const x of g.facts) skipped.set(x.source, x.skipped)
  return {
    session_id: f.session_id,
    harness: f.harness,
    agent: known((x) => x.agent),
    project: known((x) => x.project),
    models: [...g.models.keys()].sort(),
    first: `${g.first}:00:00Z`,
    last: `${g.last}:59:59Z`,
    origin: f.origin,
    machine: f.machine,
    skipped: [...skipped.values()].reduce((a, b) => a + b, 0)
  }
}
