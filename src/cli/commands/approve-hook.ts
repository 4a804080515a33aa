/** `muster approve-hook` (a harness hook answering tool calls) and `muster approve-hook install`. */
import type { Command } from 'commander'
import { HOOK_FLAGS, hookInt } from './hook-flags'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers `approve-hook` and its `install` subcommand. */
export function registerApproveHook(program: Command, io: CliIo): void {
  const hook = program
    .command('approve-hook')
    .description(
      'hook for Claude Code, Codex, Gemini CLI, Copilot CLI, Cursor and OpenCode: reads the hook JSON on stdin, asks the operator through the hub (allowlist first), prints the answer in the harness’s own format; input it cannot use is blocked (exit 2)'
    )
  for (const f of HOOK_FLAGS) {
    if (f.int) hook.option(f.spec, f.help, (v: string) => hookInt(f.spec.split(' ')[0]!, v))
    else hook.option(f.spec, f.help)
  }
  hook.action(lazyAction(io, () => import('../actions/approve-hook'), 'approveHook'))

  lazySubcommands(hook, (hook) => {
    hook
      .command('install')
      .description(
        "adds Muster's hook to a harness's settings (byte for byte outside its own entry; idempotent), or removes it with --uninstall"
      )
      .option('--agent <id>', 'the agent id the hook reports (required to install), e.g. mac-claude')
      .option(
        '--harness <name>',
        'claude (default; ~/.claude/settings.json), codex (~/.codex/hooks.json), gemini (~/.gemini/settings.json), copilot (.github/hooks/muster.json here), cursor (~/.cursor/hooks.json) or opencode (a plugin in ~/.config/opencode/plugin)'
      )
      .option('--settings <file>', 'the settings file to edit (default per harness)')
      .option(
        '--event <names>',
        'hook events, comma-separated (default: claude and codex PermissionRequest, gemini BeforeTool, copilot permissionRequest, cursor beforeShellExecution,beforeMCPExecution); claude PreToolUse gates every matching call'
      )
      .option(
        '--mode <mode>',
        'codex only: interactive (PermissionRequest, default), exec (PreToolUse deny-only gate for `codex exec`) or both'
      )
      .option(
        '--matcher <regex>',
        'tool names the hook runs for (claude PreToolUse default: Bash|Edit|MultiEdit|Write|NotebookEdit|WebFetch|mcp__.*; gemini: run_shell_command|write_file|replace|web_fetch|mcp_.*; "*" for every tool)'
      )
      .option(
        '--claude <bin>',
        'the Claude Code to ask for its version (onFailure is written for 2.1.295 and later; default: claude on PATH)'
      )
      .option('--hub <name-or-url>', 'the hub the hook asks through (default: --palace, else MemPalace’s resolution)')
      .option('--project <name>', 'the project the hook reports')
      .option(
        '--timeout-ms <ms>',
        'how long the hook waits for a decision (default 540000); the harness’s own timeout is set 30 s longer',
        (v: string) => hookInt('--timeout-ms', v)
      )
      .option('--command <cmd>', 'how the harness starts Muster (default: this node and this muster, by absolute path)')
      .option('--uninstall', "remove Muster's hook instead")
      .action(lazyAction(io, () => import('../actions/approve-hook'), 'installHookCommand'))
  })
}
