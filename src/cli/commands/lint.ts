/** `muster lint`: L0, size, target and footer checks of the MUSE role files. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `lint` command (a report: exit 0 whatever it finds; counts are in the output). */
export function registerLint(program: Command, io: CliIo): void {
  program
    .command('lint')
    .description('check role files: L0, size, targets, duplicates, directives after the footer')
    .option('--project <name>', 'only this project')
    .action(lazyAction(io, () => import('../actions/lint'), 'lint'))
}
