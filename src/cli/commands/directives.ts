/** `muster directives` (the cross-project list) and `muster directive pickup|send`. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers `directives` and the `directive` group. */
export function registerDirectives(program: Command, io: CliIo): void {
  const actions = () => import('../actions/directives')
  program
    .command('directives')
    .description('list 📡 directives of every project with their target and state')
    .option('--pending', 'only directives still waiting for pickup')
    // the accepted states come from the contract's schema, checked when the action loads (zod stays out of --help)
    .option('--state <state>', 'only this state (a value of the STATE column)')
    .option('--project <name>', 'only directives written in or addressed to this project')
    .option('--role <role>', 'only directives written in or addressed to this role')
    .option('--target <target>', 'only this target (ROLE, PROJECT/ROLE or ALL)')
    .option('--text <text>', 'only directives where every word occurs (id, target, title, body, file, role, project, date)')
    .action(lazyAction(io, actions, 'list'))

  const directive = program.command('directive').description('pick up or send one 📡 directive')

  lazySubcommands(directive, (directive) => {
    directive
      .command('pickup')
      .description('mark a directive received: receipt in the target file, 🟡 -> ✅ at the source')
      .requiredOption('--project <name>', 'project whose role file holds the 🟡 directive')
      .requiredOption('--id <id>', 'directive id, like S042')
      .requiredOption('--target <target>', 'directive target, like MUSE/BUILD')
      .action(lazyAction(io, actions, 'pickup'))

    directive
      .command('send')
      .description("write a directive into the sender's own role file")
      .requiredOption('--project <name>', 'project of the sender')
      .requiredOption('--from <role>', 'sending role (its own file gets the directive)')
      .requiredOption('--to <target>', 'target: ROLE, PROJECT/ROLE or ALL')
      .requiredOption('--title <title>', 'one-line title')
      .option('--body <text>', 'body (written as a > blockquote)', '')
      .option('--id <id>', 'directive id (default: next free S-number)')
      .option('--key <key>', 'idempotency key: running the same send again with it writes nothing new')
      .action(lazyAction(io, actions, 'send'))
  })
}
