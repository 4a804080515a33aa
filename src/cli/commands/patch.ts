/** `muster patch list|verify|apply|revert|submit`: patches sent through the hub (`muster artifact` is in `artifact.ts`). */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'
import { intFlag } from './hub-flags'

/** Registers the `patch` command group. */
export function registerPatch(program: Command, io: CliIo): void {
  const actions = () => import('../actions/patch')
  const patch = program.command('patch').description('patches sent through the hub: inbox, verification, explicit apply, submit')
  lazySubcommands(patch, (patch) => {
    patch
      .command('list')
      .description('the newest patch.ready events with their state (waiting/applied/failed/superseded/refused) and verdict')
      .option('--limit <n>', 'at most this many (1-500)', intFlag('--limit'), 200)
      .option('--hub <name>', 'a registered hub')
      .action(lazyAction(io, actions, 'list'))
    patch
      .command('verify <id>')
      .description(
        'recompute sha256 over the exact bytes, compare with the stored sha, size and quoted shas; warnings and findings (exit 1 when refused)'
      )
      .option('--project <name>', 'check base-commit files in this project (default: the matching one)')
      .option('--hub <name>', 'a registered hub')
      .action(lazyAction(io, actions, 'verify'))
    patch
      .command('apply <id>')
      .description('check the preconditions, git apply --check, apply, run the tests, then ack applied or failed with the evidence')
      .option('--project <name>', 'project to apply to (default: the one whose stream or branch matches)')
      .option('--test <cmd>', "set the project's test command first (an audited change), then apply with it")
      .option('--timeout <seconds>', 'test timeout in seconds', intFlag('--timeout'))
      .option('--3way', 'fall back to a three-way merge (git apply --3way)')
      .option('--allow-dirty', 'apply on a worktree with uncommitted changes')
      .option('--hub <name>', 'a registered hub')
      .action(lazyAction(io, actions, 'apply'))
    patch
      .command('commit <run>')
      .description("commit what an applied run changed: the patch's files only, the agent as author, a message from the patch and its task")
      .option('--message <text>', 'use this commit message instead')
      .action(lazyAction(io, actions, 'commit'))
    patch
      .command('revert <run>')
      .description('after failing tests: put the worktree back exactly as it was before that apply run (never over later edits)')
      .action(lazyAction(io, actions, 'revert'))
    patch
      .command('submit [file]')
      .description("send a patch to an agent, stored byte-exactly (a file, - for stdin, or --from-worktree P's working-tree diff)")
      .requiredOption('--to-agent <id>', 'the agent to send it to')
      .option('--from-worktree <project>', "the project's working-tree diff against HEAD")
      .option('--project <name>', 'a registered project: the patch.ready goes to its stream project/<slug> (implied by --from-worktree)')
      .option('--stream <stream>', "the stream of the patch.ready (default: the project's)")
      .option('--correlation-id <id>', 'thread to post in')
      .option('--branch <branch>', 'git branch of the work (--from-worktree: the checked-out one)')
      .option('--base-commit <sha>', 'commit the diff is against (--from-worktree: HEAD)')
      .option('--body <text>', 'message body')
      .option('--hub <name>', 'a registered hub')
      .action(lazyAction(io, actions, 'submit'))
  })
}
