/** `muster session-hook` (a harness lifecycle hook recording each session's state) and `session-hook install`. */
import type { Command } from 'commander'
import { SESSION_HOOK_FLAGS } from '../session-hook/args'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers `session-hook` and its `install` subcommand. */
export function registerSessionHook(program: Command, io: CliIo): void {
  const hook = program
    .command('session-hook')
    .description(
      'lifecycle hook for Claude Code, Codex, Gemini CLI and Copilot CLI: records the session as working, waiting for input or done (a compact status event, appended by a detached worker); always exits 0'
    )
  for (const f of SESSION_HOOK_FLAGS) hook.option(f.spec, f.help)
  hook.action(lazyAction(io, () => import('../actions/session-hook'), 'sessionHook'))

  lazySubcommands(hook, (hook) => {
    hook
      .command('install')
      .description("adds Muster's lifecycle hooks to a harness's settings (byte for byte outside its own entries), or removes them")
      .option('--agent <id>', 'the agent id the hooks report (required to install), e.g. mac-claude')
      .option(
        '--harness <name>',
        'claude (default; ~/.claude/settings.json), codex (~/.codex/hooks.json), gemini (~/.gemini/settings.json) or copilot (.github/hooks/muster.json here)'
      )
      .option('--settings <file>', 'the settings file to edit (default per harness)')
      .option('--hub <name-or-url>', 'the hub the hooks write to (default: --palace, else MemPalace’s resolution)')
      .option('--project <name>', 'the project the hooks report')
      .option('--command <cmd>', 'how the harness starts Muster (default: this node and this muster, by absolute path)')
      .option(
        '--receipts',
        'also the events after each call (Claude Code: PostToolUse, PostToolUseFailure, PermissionDenied, Interrupt; Codex: PostToolUse, Interrupt): each answered call is recorded as ran, failed, denied or interrupted'
      )
      .option('--uninstall', "remove Muster's lifecycle hooks instead")
      .action(lazyAction(io, () => import('../actions/session-hook'), 'installSessionHookCommand'))
  })
}
