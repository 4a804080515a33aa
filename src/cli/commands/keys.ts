/** `muster keys [trust KEY | untrust KEY]`: the operator's signing key and the operator keys trusted here. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `keys` command and its subcommands. */
export function registerKeys(program: Command, io: CliIo): void {
  const actions = () => import('../actions/keys')
  const keys = program
    .command('keys')
    .description(
      "this operator's public key (made on first use; every decision and allowlist rule is signed with it) and the other operators' keys trusted here"
    )
    .action(lazyAction(io, actions, 'show'))
  lazySubcommands(keys, (keys) => {
    keys
      .command('trust')
      .description("trust another operator's decisions (e.g. a remote operator deciding through a hub server); reinstall hooks after")
      .argument('<key>', 'the key id that operator’s `muster keys` prints (ed25519:...)')
      .option('--name <name>', 'who it is, shown by `muster keys`', 'operator')
      .action(lazyAction(io, actions, 'trust'))
    keys
      .command('untrust')
      .description("revoke an operator key in this home's trust ledger: its hooks stop trusting it at once")
      .argument('<key>', 'the key id')
      .action(lazyAction(io, actions, 'untrust'))
  })
}
