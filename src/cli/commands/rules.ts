/** `muster rules [--agent ID]` and `muster rules install`: the shared-brain rules block for an agent. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `rules` command and its `install` subcommand. */
export function registerRules(program: Command, io: CliIo): void {
  const actions = () => import('../actions/rules')
  const rules = program
    .command('rules')
    .description("print the shared-brain rules block for an agent's instruction file (between mempalace-shared-brain markers)")
    .option('--agent <id>', 'the agent identity, one token like mac-claude (machine-harness)')
    .action(lazyAction(io, actions, 'print'))

  lazySubcommands(rules, (rules) => {
    // `--agent` belongs to `rules` (commander gives a parent's options precedence over a
    // subcommand's), so `rules install --agent ID` reads it from there
    rules
      .command('install')
      .description(
        'write the block (--agent ID) into a harness file: replaced in place when present, appended otherwise, the file created if needed'
      )
      .option(
        '--harness <name>',
        'claude (~/.claude/CLAUDE.md), codex (~/.codex/AGENTS.md), opencode (~/.config/opencode/AGENTS.md), gemini (~/.gemini/config/GEMINI.md)'
      )
      .option('--file <path>', 'any other instruction file (e.g. Hermes SOUL.md)')
      .action(lazyAction(io, actions, 'install'))
  })
}
