/** `muster approvals list | decide`: the approvals inbox from the command line. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'
import { intFlag } from './hub-flags'

/** Registers the `approvals` commands. */
export function registerApprovals(program: Command, io: CliIo): void {
  const approvals = program.command('approvals').description('the approvals inbox: requests from agents’ hooks waiting for the operator')
  lazySubcommands(approvals, (approvals) => {
    approvals
      .command('list')
      .description('pending requests (oldest first) across every known hub, or one hub; --history adds decided ones')
      .option('--hub <name>', 'only this registered hub (or use the global --palace)')
      .option('--history <n>', 'also list the newest n decided requests', intFlag('--history'))
      .action(lazyAction(io, () => import('../actions/approvals'), 'listApprovals'))
    approvals
      .command('decide')
      .description('allow or deny a request as the operator (exit 2 when another decision came first: yours is kept as a conflict)')
      .argument('<id>', 'the request: its event id (evt_...) or correlation id (appr_...)')
      .argument('<decision>', 'allow or deny')
      .option('--reason <text>', 'why (sent back to the agent)')
      .option('--hub <name>', 'the registered hub holding the request (default: found among the known hubs)')
      .action(lazyAction(io, () => import('../actions/approvals'), 'decideApproval'))
  })
}
