/** `muster hubs list|add|remove`: the MemPalace hubs Muster watches. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `hubs` command group. */
export function registerHubs(program: Command, io: CliIo): void {
  const actions = () => import('../actions/hubs')
  const hubs = program.command('hubs').description('register, list and remove MemPalace hubs')

  lazySubcommands(hubs, (hubs) => {
    hubs
      .command('list')
      .description('registered hubs and the default hub (and why it is the default)')
      .action(lazyAction(io, actions, 'list'))

    hubs
      .command('add')
      .description('register a palace folder holding logstream.sqlite3, or a MemPalace hub server with --url (idempotent)')
      .argument('[palace]', 'palace folder (a local hub)')
      .option('--url <url>', 'a hub server (mempalace serve), e.g. http://10.0.0.5:8765')
      .option('--token-file <file>', "file holding the server's bearer token (copied into Muster's home, mode 0600; never printed)")
      .option('--name <name>', 'registry name (default: folder name, or host-port)')
      .option('--create', 'create the hub if the folder has none')
      .action(lazyAction(io, actions, 'add'))

    hubs
      .command('remove')
      .description("unregister a hub (its file is not touched; a server's token copy and mirror are deleted)")
      .argument('<name>', 'hub name')
      .action(lazyAction(io, actions, 'remove'))
  })
}
