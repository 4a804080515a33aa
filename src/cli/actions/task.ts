/** `muster task create` at work. */
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

/** Appends the task.request and prints the hand-off text. */
export async function create(io: CliIo, o: Record<string, string | undefined>, cmd: Command): Promise<void> {
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
}
