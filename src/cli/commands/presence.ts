/** `muster presence [enroll | remove ID | policy MODE]`: the operator's authenticators and the home's presence policy. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `presence` command and its subcommands. */
export function registerPresence(program: Command, io: CliIo): void {
  const actions = () => import('../actions/presence')
  const presence = program
    .command('presence')
    .description(
      'the presence policy, the risky list and the enrolled authenticators (passkey, security key, Touch ID / Windows Hello) that must confirm allows'
    )
    .action(lazyAction(io, actions, 'show'))
  lazySubcommands(presence, (presence) => {
    presence
      .command('enroll')
      .description('enrol an authenticator in the browser through muster serve (a second one needs the presence of one enrolled already)')
      .option('--name <name>', 'what to call it, e.g. phone or YubiKey')
      .action(lazyAction(io, actions, 'enroll'))
    presence
      .command('remove')
      .description('remove an enrolled authenticator (confirmed with presence; never the last one while the policy is not off)')
      .argument('<id>', 'its id (muster presence --json lists them)')
      .action(lazyAction(io, actions, 'remove'))
    presence
      .command('policy')
      .description('every-allow, risky (presence for the risky list, one tap for the rest) or off; not off without an authenticator')
      .argument('<mode>', 'every-allow, risky or off')
      .action(lazyAction(io, actions, 'policy'))
  })
}
