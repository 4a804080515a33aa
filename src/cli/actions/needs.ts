/** `muster needs` at work: the queue through the service, as the Overview reads it. */
import type { Command } from 'commander'
import { NEED_KINDS, type NeedKind } from '../../shared/api'
import { waitedFor } from '../../shared/needs-summary'
import { globals, withService } from '../context'
import { CliError, printJson, table, truncate, type CliIo } from '../output'

/** Prints the queue (or, `--refresh-summary`, only rewrites the summary file). */
export async function needs(io: CliIo, o: { hub?: string; kind?: string[]; refreshSummary?: boolean }, cmd: Command): Promise<void> {
  const palace = globals(cmd).palace
  if (o.hub && palace) throw new CliError('give --hub or --palace, not both')
  const kinds = (o.kind ?? []).map((k) => {
    if (!(NEED_KINDS as readonly string[]).includes(k)) throw new CliError(`unknown kind '${k}' (one of: ${NEED_KINDS.join(', ')})`)
    return k as NeedKind
  })
  const sel = o.hub ? { hub: o.hub } : palace ? { palace } : {}
  const list = await withService(cmd, io, (s) => s.call('needs.list', { ...sel, ...(kinds.length ? { kind: kinds } : {}) }))
  if (o.refreshSummary) return // the service wrote needs-summary.json while computing the whole queue
  const failed = list.sources.filter((s) => !s.ok)
  // one hub asked for by name that cannot be read is this command's failure, not an empty queue
  if ((o.hub || palace) && failed.length) throw new CliError(`hub ${failed[0]!.hub} could not be read: ${failed[0]!.error}`)
  if (globals(cmd).json) return printJson(io, list)
  for (const f of failed) io.stderr(`muster: ${f.source} could not be read: ${f.error}\n`)
  const now = Date.now()
  // a source that could not be read is never an empty queue: the totals say what they leave out
  const unread = failed.length ? ` in what could be read (not read: ${failed.map((f) => f.source).join(', ')})` : ''
  if (!list.items.length) io.stdout(`nothing waits on you${unread}\n`)
  else {
    const rows = list.items.map((i) => [
      waitedFor(Date.parse(i.since), now),
      i.kind,
      i.agent ?? '-',
      i.project ?? '-',
      truncate(i.title, 60),
      i.link
    ])
    io.stdout(table([['WAITING', 'KIND', 'AGENT', 'PROJECT', 'WHAT', 'OPEN'], ...rows]))
  }
  const u = list.unread
  io.stdout(`${list.count} waiting${unread} · unread: ${u.direct} direct, ${u.broadcast} broadcast (not counted)\n`)
}
