/** `muster usage`: tokens and estimated spend per session, agent, project, harness, model or day. */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `usage` command. */
export function registerUsage(program: Command, io: CliIo): void {
  program
    .command('usage')
    .description('tokens and estimated spend per session, agent, project, harness, model or day (estimates from a dated price table)')
    .option('--by <group>', 'session, agent, project, harness, model or day', 'session')
    .option('--since <when>', 'today, yesterday, 7d (the last 7 days), 24h, a date (2026-12-01) or an ISO time (default: all)')
    .option('--until <when>', 'the end of the window, in the same words (default: now)')
    .option('--agent <id>', 'only this agent')
    .option('--project <name>', 'only this project')
    .option('--harness <id>', 'only this harness (claude-code, codex, gemini, ...)')
    .option('--session <id>', 'only this session')
    .option('--model <id>', 'only this model')
    .action(lazyAction(io, () => import('../actions/usage'), 'usage'))
}
