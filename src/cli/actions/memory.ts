/** `muster memory write|search` at work. */
import type { Command } from 'commander'
import { CliError, printJson, type CliIo } from '../output'
import { globals, withService } from '../context'

/** `memory write TEXT...`. */
export async function write(io: CliIo, words: string[], opts: { project: string; section?: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) =>
    s.call('muse.memoryWrite', { project: opts.project, section: opts.section, text: words.join(' ') })
  )
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`${r.created ? 'created' : 'appended to'} ${r.file} (line ${r.line})\n`)
}

/** `memory search QUERY...`. */
export async function search(
  io: CliIo,
  words: string[],
  opts: { project?: string; scope: string; limit: string },
  cmd: Command
): Promise<void> {
  if (!['all', 'recent', 'longterm'].includes(opts.scope))
    throw new CliError(`invalid --scope '${opts.scope}': use all, recent or longterm`)
  const limit = Number(opts.limit)
  if (!Number.isInteger(limit) || limit < 1) throw new CliError(`invalid --limit '${opts.limit}'`)
  const r = await withService(cmd, io, (s) =>
    s.call('muse.memorySearch', {
      project: opts.project,
      query: words.join(' '),
      scope: opts.scope as 'all' | 'recent' | 'longterm',
      limit
    })
  )
  if (globals(cmd).json) return printJson(io, { ...r, count: r.hits.length })
  if (r.hits.length === 0) return io.stdout('no matches\n')
  for (const h of r.hits)
    io.stdout(
      `${h.project}/${h.file}:${h.line}\n${h.text
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}\n`
    )
}
