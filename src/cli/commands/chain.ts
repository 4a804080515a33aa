/** `muster chain check|findings`: the invocation protocol's four hard rules. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `chain` command group. */
export function registerChain(program: Command, io: CliIo): void {
  const actions = () => import('../actions/chain')
  const chain = program.command('chain').description('invocation chains ([INVOKE]/[CHAIN] tags): check one call, list violations')

  lazySubcommands(chain, (chain) => {
    chain
      .command('check')
      .description('may the last agent of --chain invoke --target? Prints allowed, or blocked with the [BLOCKED: ...] line to use (exit 2)')
      .requiredOption('--chain <chain>', 'the call chain so far, e.g. "cro → cfo" (cro->cfo works too; "" for none)')
      .requiredOption('--target <role>', 'the role to invoke, e.g. coo')
      .option('--phase <n>', 'board-meeting phase (2: no invocations; 3: the critic may not invoke)')
      .option('--caller <agent>', 'who invokes, when not the chain’s last role (e.g. executive-mentor)')
      .action(lazyAction(io, actions, 'check'))

    chain
      .command('findings')
      .description('every rule violation and malformed tag in role files and hub event bodies (a report: exit 0)')
      .option('--project <name>', 'only this project (its role files and its hub stream)')
      .action(lazyAction(io, actions, 'findings'))
  })
}
