/** `muster gates`: every installed gate's health (the CLI twin of the Overview's gates panel). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `gates` command. */
export function registerGates(program: Command, io: CliIo): void {
  program
    .command('gates')
    .description(
      "every installed approvals gate: still in the harness's settings, its command starts, the harness fails closed, Codex trusts it, its hub answers, its last request (exit 1 when one is broken)"
    )
    .option('--repair', "point this home's gate launcher at this Muster build first (after Muster moved or was upgraded)")
    .action(lazyAction(io, () => import('../actions/gates'), 'gates'))
}
