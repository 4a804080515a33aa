/** `muster directives` (the cross-project list) and `muster directive pickup|send`. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Directive states the `--state` flag accepts (help text only; the contract validates). */
const STATES = ['pending', 'received', 'delivered', 'untracked'] as const

/** Registers `directives` and the `directive` group. */
export function registerDirectives(program: Command, io: CliIo): void {
  const actions = () => import('../actions/directives')
  program
    .command('directives')
    .description('list 📡 directives of every project with their target and state')
    .option('--pending', 'only directives still waiting for pickup')
    .option('--state <state>', `only this state (${STATES.join(', ')})`)
    .option('--project <name>', 'only directives written in or addressed to this project')
    .option('--role <role>', 'only directives written in or addressed to this role')
    .option('--target <target>', 'only this target (ROLE, PROJECT/ROLE or ALL)')
    .option('--text <text>', 'only directives whose title or body contains this text')
    .action(lazyAction(io, actions, 'list'))

  const directive = program.command('directive').description('pick up or send one 📡 directive')

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
    .action(lazyAction(io, actions, 'send'))
}
