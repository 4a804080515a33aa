/** `muster task create`: a canonical `task.request` (upstream `mempalace task create`). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `task` command group. */
export function registerTask(program: Command, io: CliIo): void {
  const task = program.command('task').description('delegate work through the hub')
  task
    .command('create')
    .description('append a task.request (goal, branch, base commit, definition of done)')
    .requiredOption('--project <name>', 'project name (stream project/<slug>)')
    .requiredOption('--from-agent <agent>', 'requesting agent id')
    .requiredOption('--to-agent <agent>', 'destination agent id')
    .option('--goal <text>').option('--goal-file <file>')
    .requiredOption('--branch <branch>', 'branch to work on')
    .requiredOption('--base-commit <sha>', 'hexadecimal commit id (7-64 chars)')
    .option('--done <text>', 'definition of done').option('--done-file <file>')
    .option('--hub <name>', 'a registered hub')
    .action(lazyAction(io, () => import('../actions/task'), 'create'))
}
