/** `muster thread <correlation_id>`: one conversation with its folded task state. */
import type { Command } from 'commander'
import { globals } from '../context'
import { age, printJson, truncate, type CliIo } from '../output'
import { intFlag, withHub } from './hub-cli'

/** Registers the `thread` command. */
export function registerThread(program: Command, io: CliIo): void {
  program
    .command('thread')
    .description('show every event of one correlation id and the task state folded from them')
    .argument('<correlation_id>', 'e.g. task_fix_mcp_timeout_1a2b3c4d')
    .option('--stuck-after-ms <ms>', 'a claim older than this without a terminal status is stuck (default 2 h)', intFlag('--stuck-after-ms'))
    .option('--hub <name>', 'a registered hub')
    .action(async (correlationId: string, o: { stuckAfterMs?: number }, cmd: Command) => {
      const { hub: _h, palace: _p, events, ...fold } = await withHub(cmd, io, (hubs, sel) =>
        hubs.thread({ ...sel, correlation_id: correlationId, stuck_after_ms: o.stuckAfterMs })
      )
      if (globals(cmd).json) return printJson(io, { ...fold, events, count: events.length })
      const who = fold.state_by ? ` by ${fold.state_by} ${age(fold.state_at)}` : ''
      io.stdout(`${correlationId}: ${fold.state.toUpperCase()}${who}${fold.stuck ? '  STUCK' : ''}\n`)
      if (fold.request) io.stdout(`  ${fold.request.title}  (${fold.request.from_agent} -> ${fold.request.to_agent ?? '-'}, ${fold.request.branch ?? '-'} @ ${fold.request.base_commit ?? '-'})\n`)
      for (const s of fold.steps) {
        const mark = s.voided ? ' (voided)' : ''
        const body = truncate(s.body.replace(/\s+/g, ' ').trim(), 70)
        io.stdout(`  ${s.seq}  ${s.created_at}  ${s.type}${s.status ? '/' + s.status : ''}${mark}  ${s.from_agent}  ${body}\n`)
      }
    })
}
