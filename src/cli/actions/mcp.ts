/**
 * `muster mcp` at work: stdout belongs to the protocol, so every console method is sent to stderr
 * first (nothing else may write there); the server runs until stdin ends.
 */
import type { Command } from 'commander'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { projectRoot } from '../../core/mcp'
import { openHubService } from '../../core/hub'
import { homeOf } from '../context'
import { buildMcpServer } from '../mcp/server'
import type { CliIo } from '../output'
import { cliSelection } from './hub-cli'

/** Runs the server on the process's stdin/stdout. */
export async function mcp(io: CliIo, opts: { projectRoot?: string }, cmd: Command): Promise<void> {
  const root = await projectRoot(opts.projectRoot ?? io.cwd)
  for (const m of ['log', 'info', 'debug', 'warn'] as const) console[m] = (...args: unknown[]) => console.error(...args)
  const service = openHubService(homeOf(cmd, io), io.env)
  const server = buildMcpServer({ root, hubs: service.hubs, hub: cliSelection(cmd, io) })
  const transport = new StdioServerTransport()
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve)
    process.stdin.once('close', resolve)
    transport.onclose = resolve
  })
  await server.connect(transport)
  io.stderr(`muster mcp: serving ${root} over stdio\n`)
  await ended
  await server.close()
  await service.close()
}
