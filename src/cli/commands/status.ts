/** `muster status`: every project's roles with their parsed L0 (the CLI twin of the overview). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `status` command. */
export function registerStatus(program: Command, io: CliIo): void {
  program
    .command('status')
    .description("print every project's roles with their parsed L0 status line")
    .option('--project <name>', 'only this project')
    .action(lazyAction(io, () => import('../actions/status'), 'status'))
}
