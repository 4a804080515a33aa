/** `muster thread <correlation_id>`: one conversation with its folded task state. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'
import { argparseStyle, pyIntFlag } from '../usage'

/** Registers the `thread` command. */
export function registerThread(program: Command, io: CliIo): void {
  argparseStyle(program.command('thread'))
    .description('show every event of one correlation id and the task state folded from them')
    .argument('<correlation_id>', 'e.g. task_fix_mcp_timeout_1a2b3c4d')
    .option('--stuck-after-ms <ms>', 'a claim older than this without a terminal status is stuck (default 2 h)', pyIntFlag)
    .option('--hub <name>', 'a registered hub')
    .action(lazyAction(io, () => import('../actions/thread'), 'thread'))
}
