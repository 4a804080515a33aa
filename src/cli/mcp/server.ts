/**
 * `muster mcp`'s server: an `McpServer` (the MCP SDK, 1.x) with MUSE's six tools for one project
 * root and the hub tools, each registered with its input schema from the contract
 * (`shared/contract/mcp-tools.ts`). Tool failures are tool results with `isError`; the SDK
 * answers the protocol itself (initialize, tools/list, ping, string or number request ids).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { HUB_MCP_TOOLS, MUSE_MCP_TOOLS, type HubToolName, type MuseToolName } from '../../shared/contract/mcp-tools'
import type { HubSelection, HubService } from '../../core/hub'
import { hubTools, getRole, getStatus, listRoles, searchMemory, sendDirective, writeMemory, type ToolText } from '../../core/mcp'
import { MUSTER_VERSION } from '../../core/version'

/** What the server serves. */
export interface McpServerOptions {
  /** The MUSE project root (holds `.muse/`). */
  root: string
  hubs: HubService
  /** The hub the hub tools address. */
  hub: HubSelection
  /** The clock of dated writes (tests pin it). */
  now?: () => Date
}

const text = (r: ToolText): CallToolResult => ({ content: [{ type: 'text', text: r.text }], ...(r.isError ? { isError: true } : {}) })

/** Builds the server with every tool registered. */
export function buildMcpServer(o: McpServerOptions): McpServer {
  const now = o.now ?? (() => new Date())
  const server = new McpServer({ name: 'muster', version: MUSTER_VERSION }, { capabilities: { tools: {} } })
  const muse: { [K in MuseToolName]: (args: never) => Promise<ToolText> } = {
    muse_get_status: () => getStatus(o.root),
    muse_list_roles: () => listRoles(o.root),
    muse_get_role: (a: { role: string }) => getRole(o.root, a.role),
    muse_send_directive: (a: { target_role: string; directive_id: string; title: string; body: string }) => sendDirective(o.root, a, now()),
    muse_write_memory: (a: { content: string; section?: string }) => writeMemory(o.root, a, now()),
    muse_search_memory: (a: { query: string; scope?: 'all' | 'recent' | 'longterm' }) => searchMemory(o.root, a, now())
  }
  for (const name of Object.keys(MUSE_MCP_TOOLS) as MuseToolName[]) {
    const def = MUSE_MCP_TOOLS[name]
    server.registerTool(name, { description: def.description, inputSchema: def.input }, async (args: unknown) =>
      text(await muse[name](args as never))
    )
  }
  const hub = hubTools(o.hubs, o.hub)
  for (const name of Object.keys(HUB_MCP_TOOLS) as HubToolName[]) {
    const def = HUB_MCP_TOOLS[name]
    server.registerTool(name, { description: def.description, inputSchema: def.input }, async (args: unknown): Promise<CallToolResult> => {
      const r = await (hub[name] as (a: unknown) => Promise<{ json: unknown; isError: boolean }>)(args)
      return text({ text: JSON.stringify(r.json), isError: r.isError })
    })
  }
  return server
}
