/** `muster needs`: the needs-you queue, everything waiting on the operator (the CLI twin of the Overview's panel). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'
import { collect } from './hub-flags'

/** Registers the `needs` command. */
export function registerNeeds(program: Command, io: CliIo): void {
  program
    .command('needs')
    .description(
      'what waits on you, longest wait first: approvals, patches, tasks, direct messages, stuck tasks, directives, sessions, broken gates'
    )
    .option('--hub <name>', 'only this registered hub (default: every known hub and the fleet)')
    .option('--kind <kind>', 'only this kind (repeatable): approval, patch, task, message, stuck, directive, session, gate', collect)
    .option('--refresh-summary', 'only recompute the summary `muster status` prints (quiet; run by status itself)')
    .action(lazyAction(io, () => import('../actions/needs'), 'needs'))
}
