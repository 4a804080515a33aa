/** `muster usage` at work: the usage summary through the service, as the Usage screen reads it. */
import type { Command } from 'commander'
import { USAGE_GROUPS, type UsageGroup, type UsageRow } from '../../shared/api'
import { fullTokens, shortTokens, usd, windowStart } from '../../shared/usage/format'
import { globals, withService } from '../context'
import { CliError, printJson, table, truncate, type CliIo } from '../output'

/** The options of `muster usage`. */
export interface UsageOptions {
  by?: string
  since?: string
  until?: string
  agent?: string
  project?: string
  harness?: string
  session?: string
  model?: string
}

/** An instant from a window word, or a usage error naming the flag. */
function instant(flag: string, word: string | undefined): string | undefined {
  if (word === undefined) return undefined
  const d = windowStart(word)
  if (!d) throw new CliError(`${flag} '${word}' is not a time (today, yesterday, 7d, 24h, 2026-12-01 or an ISO time)`, 2)
  return d.toISOString()
}

/** The first column of a row. */
function keyCell(r: UsageRow, by: UsageGroup): string {
  if (by === 'session' && r.session) return truncate(r.key, 36)
  return truncate(r.key || '(unknown)', 40)
}

/** Prints usage grouped as asked. */
export async function usage(io: CliIo, o: UsageOptions, cmd: Command): Promise<void> {
  const by = (o.by ?? 'session') as UsageGroup
  if (!(USAGE_GROUPS as readonly string[]).includes(by)) throw new CliError(`--by '${o.by}' is not one of ${USAGE_GROUPS.join(', ')}`, 2)
  const since = instant('--since', o.since)
  const until = instant('--until', o.until)
  const s = await withService(cmd, io, (svc) =>
    svc.call('usage.summary', {
      by,
      ...(since ? { since } : {}),
      ...(until ? { until } : {}),
      tz_offset_min: new Date().getTimezoneOffset(),
      ...(o.agent ? { agent: o.agent } : {}),
      ...(o.project ? { project: o.project } : {}),
      ...(o.harness ? { harness: o.harness } : {}),
      ...(o.session ? { session: o.session } : {}),
      ...(o.model ? { model: o.model } : {})
    })
  )
  if (globals(cmd).json) return printJson(io, s)
  const head = [
    by.toUpperCase(),
    ...(by === 'session' ? ['HARNESS', 'AGENT'] : []),
    'SESSIONS',
    'INPUT',
    'OUTPUT',
    'CACHE W',
    'CACHE R',
    'TOTAL',
    'EST. $'
  ]
  const rows = s.rows.map((r) => [
    keyCell(r, by),
    ...(by === 'session' ? [r.session?.harness ?? '-', r.session?.agent ?? '-'] : []),
    String(r.sessions),
    shortTokens(r.tokens.input),
    shortTokens(r.tokens.output),
    shortTokens(r.tokens.cache_write),
    shortTokens(r.tokens.cache_read),
    fullTokens(r.total),
    r.usd === null ? 'unpriced' : `${usd(r.usd)}${r.unpriced_tokens ? '+' : ''}`
  ])
  if (rows.length) io.stdout(table([head, ...rows]))
  else io.stdout('no usage recorded in this window\n')
  const t = s.total
  io.stdout(
    `total: ${fullTokens(t.total)} tokens in ${t.sessions} session${t.sessions === 1 ? '' : 's'}, estimated ${usd(t.usd)} (prices of ${s.prices.date}, table v${s.prices.version}${s.prices.overridden.length ? `, your prices for ${s.prices.overridden.join(', ')}` : ''})\n`
  )
  if (t.unpriced_models.length)
    io.stdout(
      `not priced (no price known; counted in tokens only): ${t.unpriced_models.join(', ')}: ${fullTokens(t.unpriced_tokens)} tokens\n`
    )
  if (s.skipped) io.stdout(`${s.skipped} unreadable line${s.skipped === 1 ? '' : 's'} skipped in the harnesses’ records\n`)
  for (const h of s.harnesses) if (h.status === 'no-usage') io.stdout(`${h.harness}: no usage data (${h.note})\n`)
}
