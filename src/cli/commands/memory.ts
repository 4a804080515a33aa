/** `muster memory write|search`: today's daily log and the ranked memory search. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `memory` command group. */
export function registerMemory(program: Command, io: CliIo): void {
  const actions = () => import('../actions/memory')
  const memory = program.command('memory').description("write to today's memory log, search memory")

  lazySubcommands(memory, (memory) => {
    memory
      .command('write')
      .description("append an entry to memory/YYYY-MM-DD.md (today's log)")
      .requiredOption('--project <name>', 'project')
      .option('--section <name>', 'entry tag, written as ## [SECTION] HH:MM')
      .argument('<text...>', 'text to append')
      .action(lazyAction(io, actions, 'write'))

    memory
      .command('search')
      .description('search daily logs and MEMORIES.md (ranked; CJK works)')
      .option('--project <name>', 'only this project')
      .option('--scope <scope>', 'all, recent (last 3 days) or longterm (MEMORIES.md)', 'all')
      .option('--limit <n>', 'maximum hits', '20')
      .argument('<query...>', 'words to find')
      .action(lazyAction(io, actions, 'search'))
  })
}
