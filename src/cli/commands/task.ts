/** `muster task create`: a canonical `task.request` (upstream `mempalace task create`, cli/parser.py). */
import { Option, type Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'
import { argparseStyle, requireOneOf } from '../usage'

/** Registers the `task` command group. */
export function registerTask(program: Command, io: CliIo): void {
  const task = argparseStyle(program.command('task').description('delegate work through the hub'))
  lazySubcommands(task, (task) => {
    const create = task
      .command('create')
      .description('create a canonical task.request and print a pasteable handoff')
      .requiredOption('--project <name>', 'project name for routing (stream project/<slug>)')
      .requiredOption('--from-agent <agent>', 'requesting agent identity')
      .requiredOption('--to-agent <agent>', 'worker agent identity')
      .addOption(new Option('--goal <text>', 'verbatim task goal'))
      .addOption(new Option('--goal-file <file>', "read the task goal from a file ('-' for stdin)").conflicts('goal'))
      .requiredOption('--branch <branch>', 'git branch for the work')
      .requiredOption('--base-commit <sha>', 'immutable hexadecimal commit id the worker must start from (not a branch or tag)')
      .addOption(new Option('--done <text>', 'verbatim definition of done'))
      .addOption(new Option('--done-file <file>', "read the definition of done from a file ('-' for stdin)").conflicts('done'))
      .option('--hub <name>', 'a registered hub (Muster)')
      .action(lazyAction(io, () => import('../actions/task'), 'create'))
    requireOneOf(create, ['--goal', '--goal-file'])
    requireOneOf(create, ['--done', '--done-file'])
  })
}
