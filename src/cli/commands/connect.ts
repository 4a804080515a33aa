/** `muster connect`: the harnesses on this machine, and their approvals gate and session hooks in one step. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `connect` command. */
export function registerConnect(program: Command, io: CliIo): void {
  program
    .command('connect [harness]')
    .description(
      'the agent harnesses on this machine: version, approvals gate, session hooks, gate health; with a harness (claude, codex, gemini, copilot, cursor, opencode): installs its gate and session hooks in one step'
    )
    .option('--agent <id>', 'the agent id the hooks report (default: the one installed, else <machine>-<harness>)')
    .option('--remove', "remove the harness's gate and session hooks instead")
    .option('--test', 'send a test request from the harness’s agent into the inbox and wait for your answer (nothing runs either way)')
    .option('--no-wait', 'with --test: return once the request is in the inbox')
    .action(lazyAction(io, () => import('../actions/connect'), 'connect'))
}
