/** `muster mcp`: an MCP server over stdio for agents (MUSE's six tools and the hub tools). */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `mcp` command. */
export function registerMcp(program: Command, io: CliIo): void {
  program
    .command('mcp')
    .description(
      "serve MCP over stdio: MUSE's tools (muse_get_status, ...) for --project-root and the hub tools (mempalace_event_list, ...)"
    )
    .option('--project-root <dir>', 'the MUSE project (holding .muse/); default: the current folder')
    .option('--hub <name>', 'registered hub for the hub tools (default: --palace, else the hub registered first, else MemPalace’s palace)')
    .action(lazyAction(io, () => import('../actions/mcp'), 'mcp'))
}
