/** `muster memory write|search`: today's daily log and the ranked memory search. */
import type { Command } from 'commander'
import { CliError, printJson, type CliIo } from '../output'
import { globals, withService } from '../context'

/** Registers the `memory` command group. */
export function registerMemory(program: Command, io: CliIo): void {
  const memory = program.command('memory').description("write to today's memory log, search memory")

  memory
    .command('write')
    .description("append an entry to memory/YYYY-MM-DD.md (today's log)")
    .requiredOption('--project <name>', 'project')
    .option('--section <name>', 'entry tag, written as ## [SECTION] HH:MM')
    .argument('<text...>', 'text to append')
    .action(async (words: string[], opts: { project: string; section?: string }, cmd: Command) => {
      const r = await withService(cmd, io, (s) => s.call('muse.memoryWrite', { project: opts.project, section: opts.section, text: words.join(' ') }))
      if (globals(cmd).json) return printJson(io, r)
      io.stdout(`${r.created ? 'created' : 'appended to'} ${r.file} (line ${r.line})\n`)
    })

  memory
    .command('search')
    .description('search daily logs and MEMORIES.md (ranked; CJK works)')
    .option('--project <name>', 'only this project')
    .option('--scope <scope>', 'all, recent (last 3 days) or longterm (MEMORIES.md)', 'all')
    .option('--limit <n>', 'maximum hits', '20')
    .argument('<query...>', 'words to find')
    .action(async (words: string[], opts: { project?: string; scope: string; limit: string }, cmd: Command) => {
      if (!['all', 'recent', 'longterm'].includes(opts.scope)) throw new CliError(`invalid --scope '${opts.scope}': use all, recent or longterm`)
      const limit = Number(opts.limit)
      if (!Number.isInteger(limit) || limit < 1) throw new CliError(`invalid --limit '${opts.limit}'`)
      const r = await withService(cmd, io, (s) =>
        s.call('muse.memorySearch', { project: opts.project, query: words.join(' '), scope: opts.scope as 'all' | 'recent' | 'longterm', limit })
      )
      if (globals(cmd).json) return printJson(io, { ...r, count: r.hits.length })
      if (r.hits.length === 0) return io.stdout('no matches\n')
      for (const h of r.hits) io.stdout(`${h.project}/${h.file}:${h.line}\n${h.text.split('\n').map((l) => `  ${l}`).join('\n')}\n`)
    })
}
