/**
 * `muster mcp`'s tools on the JSON-RPC dispatcher (./jsonrpc.ts):
 * - MUSE's six for one project root, as MUSE's own server (mcp-server.sh) serves them: arguments
 *   read the way its `jq -r '.x // empty'` reads them (missing or null is '', extra ones ignored),
 *   failures flagged `isError` with MUSE's texts;
 * - MemPalace's eight logstream tools on the chosen hub (core/mcp/hub-tools.ts), as upstream's
 *   server serves them: arguments checked (unknown names, integers, required), results as
 *   `json.dumps(result, indent=2, ensure_ascii=False)` text with metadata exactly as stored,
 *   refusals as ordinary results.
 */
import { pyDumps } from '../../shared/py-json'
import { HUB_MCP_TOOLS, MUSE_MCP_TOOLS, type HubToolName, type MuseToolName } from '../../shared/contract/mcp-tools'
import type { HubSelection, HubService } from '../../core/hub/hub-service'
import { hubTools } from '../../core/mcp/hub-tools'
import { getRole, getStatus, listRoles, searchMemory, sendDirective, writeMemory, type ToolText } from '../../core/mcp/muse-tools'
import { MUSTER_VERSION } from '../../core/version'
import { upstreamJson } from '../upstream-output'
import { JsonRpcDispatcher, type RpcTool, type ToolArgs } from './jsonrpc'

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

/** An argument as MUSE's server reads it with `jq -r '.x // empty'`: missing, null or false is ''. */
export function museArg(args: ToolArgs, key: string): string {
  const v = args[key]
  if (v === undefined || v === null || v === false) return ''
  return typeof v === 'string' ? v : pyDumps(v, { loneSurrogates: 'escape' })
}

/** Builds the dispatcher with every tool. */
export function buildMcpServer(o: McpServerOptions): JsonRpcDispatcher {
  const now = o.now ?? (() => new Date())
  const a = museArg
  const muse: Record<MuseToolName, (args: ToolArgs) => Promise<ToolText>> = {
    muse_get_status: () => getStatus(o.root),
    muse_list_roles: () => listRoles(o.root),
    muse_get_role: (x) => getRole(o.root, a(x, 'role')),
    muse_send_directive: (x) =>
      sendDirective(
        o.root,
        { target_role: a(x, 'target_role'), directive_id: a(x, 'directive_id'), title: a(x, 'title'), body: a(x, 'body') },
        now()
      ),
    muse_write_memory: (x) => writeMemory(o.root, { content: a(x, 'content'), section: a(x, 'section') || undefined }, now()),
    muse_search_memory: (x) => searchMemory(o.root, { query: a(x, 'query'), scope: a(x, 'scope') || 'all' }, now())
  }
  const tools: Record<string, RpcTool> = {}
  for (const name of Object.keys(MUSE_MCP_TOOLS) as MuseToolName[]) {
    tools[name] = { ...MUSE_MCP_TOOLS[name], strictArguments: false, call: (args) => muse[name](args) }
  }
  const hub = hubTools(o.hubs, o.hub)
  for (const name of Object.keys(HUB_MCP_TOOLS) as HubToolName[]) {
    tools[name] = {
      ...HUB_MCP_TOOLS[name],
      strictArguments: true,
      call: async (args, signal) => ({ text: upstreamJson(await hub[name](args, signal)).slice(0, -1) })
    }
  }
  return new JsonRpcDispatcher({ name: 'muster', version: MUSTER_VERSION }, tools)
}
