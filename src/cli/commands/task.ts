/** `muster task create`: a canonical `task.request` (upstream `mempalace task create`). */
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { globals } from '../context'
import { printJson, type CliIo } from '../output'
import { withHub } from './hub-cli'

function textOf(value: string | undefined, file: string | undefined, name: string): string {
  if (value !== undefined && file !== undefined) throw new Error(`pass --${name} or --${name}-file, not both`)
  if (file !== undefined) return readFileSync(file, 'utf8')
  return value ?? ''
}

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
    .action(async (o: Record<string, string | undefined>, cmd: Command) => {
      const goal = textOf(o.goal, o.goalFile, 'goal')
      const done = textOf(o.done, o.doneFile, 'done')
      // Through the hub service, like the UI: a registered project of that name gets its base commit checked.
      const { task: event, handoff } = await withHub(cmd, io, (hubs, sel) =>
        hubs.createTask({
          ...sel, project: o.project!, from_agent: o.fromAgent!, to_agent: o.toAgent!, goal, branch: o.branch!, base_commit: o.baseCommit!, done
        })
      )
      const result = { task: event, handoff }
      if (globals(cmd).json) return printJson(io, result)
      io.stdout(`created ${result.task.correlation_id} (${result.task.id})\n${result.handoff}\n`)
    })
}
