/** `muster demo [DIR]`: create and register a realistic sample fleet. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `demo` command. */
export function registerDemo(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('create a sample fleet (projects, role files, git repos, a hub) and register it')
    .argument('[dir]', 'where to create it (default: <home>/demo)')
    .action(lazyAction(io, () => import('../actions/demo'), 'demo'))
}
