/** `muster task create` at work (upstream cli/cmd_coord.py `cmd_task`, action `create`). */
import type { Command } from 'commander'
import { globals } from '../context'
import type { CliIo } from '../output'
import { readTextArg } from '../read-text'
import { printUpstreamJson } from '../upstream-output'
import { withHub } from './hub-cli'

/** Appends the task.request and prints the hand-off text. */
export async function create(io: CliIo, o: Record<string, string | undefined>, cmd: Command): Promise<void> {
  const goal = await readTextArg(io, o.goal, o.goalFile)
  const done = await readTextArg(io, o.done, o.doneFile)
  // Through the hub service, like the UI: a registered project of that name gets its base commit checked.
  const { task: event, handoff } = await withHub(cmd, io, (hubs, sel) =>
    hubs.createTask({
      ...sel,
      project: o.project!,
      from_agent: o.fromAgent!,
      to_agent: o.toAgent!,
      goal,
      branch: o.branch!,
      base_commit: o.baseCommit!,
      done
    })
  )
  if (globals(cmd).json) return printUpstreamJson(io, { task: event, handoff })
  io.stdout(`Task created: ${event.correlation_id}\nEvent: ${event.id}\nTo: ${o.toAgent}\n\nReady to paste:\n${handoff}\n`)
}
