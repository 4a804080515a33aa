/** `muster roles` (a project's role files) and `muster role` (one role file parsed). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers `roles` and `role`. */
export function registerRoles(program: Command, io: CliIo): void {
  const actions = () => import('../actions/roles')
  program
    .command('roles')
    .description("list a project's role files with L0, size, pending directives and TODOs")
    .requiredOption('--project <name>', 'project')
    .action(lazyAction(io, actions, 'roles'))

  program
    .command('role')
    .description('show one role file: outline, TODO progress, directives')
    .requiredOption('--project <name>', 'project')
    .argument('<role>', 'role name, like build')
    .action(lazyAction(io, actions, 'role'))
}
