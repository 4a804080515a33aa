/**
 * The tools `muster mcp` serves over MCP: MUSE's six (same names, descriptions and input schemas
 * as MUSE's own server, `fixtures/muse-mcp/muse-mcp-tools-list.json`) and the hub tools an agent
 * needs to close loops (named and shaped like MemPalace's `mempalace_event_*` tools). The hub
 * tools' inputs are the hub contract's schemas, narrowed to upstream's argument names, plus the
 * agent's own `from_agent`. Unknown argument names are rejected, as MemPalace's server does.
 */
import { z } from 'zod'
import { hubMethods, HubFilters } from './hub'

/** One tool: its description and its input schema (a strict object). */
export interface McpToolDef {
  description: string
  input: z.ZodObject
}

/** MUSE's tools: every property a plain string described as upstream describes it. */
export const MUSE_MCP_TOOLS = {
  muse_get_status: {
    description:
      'Get project status by reading all L0 header lines from MUSE role files. Returns a concise (~400 token) overview of the entire project state across all roles (build, growth, qa, gm, etc).',
    input: z.object({}).strict()
  },
  muse_list_roles: {
    description: 'List all available MUSE role files in the project. Returns role names and their L0 status summaries.',
    input: z.object({}).strict()
  },
  muse_get_role: {
    description:
      'Read the full content of a specific MUSE role file (L1 deep read). Use muse_get_status first for an overview, then this for details.',
    input: z.object({ role: z.string().describe('Role file name without extension (e.g., build, growth, qa, gm, strategy)') }).strict()
  },
  muse_send_directive: {
    description:
      'Send a cross-role directive using the MUSE directive protocol (📡). Creates a directive entry in the specified role file.',
    input: z
      .object({
        target_role: z.string().describe('Target role file name (e.g., build, growth)'),
        directive_id: z.string().describe('Directive ID (e.g., S042)'),
        title: z.string().describe('One-line directive title'),
        body: z.string().describe('Directive body content')
      })
      .strict()
  },
  muse_write_memory: {
    description: "Append content to today's daily memory log (memory/YYYY-MM-DD.md). Creates the file if it doesn't exist.",
    input: z
      .object({
        content: z.string().describe("Content to append to today's memory file"),
        section: z.string().describe('Optional section header to add before content (e.g., Build Session)').optional()
      })
      .strict()
  },
  muse_search_memory: {
    description: 'Search across MUSE memory files (memory/*.md) and long-term knowledge (MEMORIES.md) for a query string.',
    input: z
      .object({
        query: z.string().describe('Search query (grep pattern)'),
        scope: z
          .enum(['all', 'recent', 'longterm'])
          .describe('Search scope: all (memory/ + MEMORIES.md), recent (last 3 days memory/), longterm (MEMORIES.md only). Default: all')
          .optional()
      })
      .strict()
  }
} as const satisfies Record<string, McpToolDef>

/** Names of MUSE's tools. */
export type MuseToolName = keyof typeof MUSE_MCP_TOOLS

const FromAgent = z.string().describe('Your agent identity, e.g. mac-claude (written as from_agent)')
/** The read filters upstream's event tools take (Muster's extensions left out). */
const WAIT_FILTERS = {
  stream: true,
  room: true,
  topic: true,
  type: true,
  to_agent: true,
  from_agent: true,
  correlation_id: true,
  status: true,
  since_event_id: true,
  since_created_at: true,
  limit: true
} as const
const LIST_FILTERS = { ...WAIT_FILTERS, before_event_id: true, order: true, preview: true } as const
const { hub: _h, palace: _p, ...appendShape } = hubMethods['hub.append'].input.shape
const { hub: _h2, palace: _p2, ...ackShape } = hubMethods['hub.ack'].input.shape

/** The hub tools (MemPalace's names; results are upstream's JSON in one text block). */
export const HUB_MCP_TOOLS = {
  mempalace_event_list: {
    description:
      'List coordination events with structured filters. to_agent also matches broadcasts (*). Resume with since_event_id (exclusive), never with a time. order defaults to asc after a cursor, else desc; preview=true cuts bodies to 200 characters.',
    input: HubFilters.pick(LIST_FILTERS).strict()
  },
  mempalace_event_wait: {
    description:
      'Block until a matching event exists or the timeout expires (timeout_ms, default 60000, max 300000). Returns {"timed_out", "events", "count"}.',
    input: HubFilters.pick(WAIT_FILTERS).extend({ timeout_ms: hubMethods['hub.wait'].input.shape.timeout_ms }).strict()
  },
  mempalace_event_append: {
    description: 'Append one immutable coordination event (task.request, task.reply, status, ...). Every MemPalace write rule applies.',
    input: z.object({ ...appendShape, from_agent: FromAgent }).strict()
  },
  mempalace_event_ack: {
    description: 'Append an event.ack referencing a prior event (never mutates it): claimed, applied, failed, blocked or superseded.',
    input: z.object({ ...ackShape, from_agent: FromAgent }).strict()
  },
  mempalace_patch_submit: {
    description: 'Store a patch artifact (exact bytes, sha256) and append its patch.ready event in one call.',
    input: z
      .object({
        content: z.string().describe('The unified diff, exactly (end it with a newline; no CRLF)'),
        from_agent: FromAgent,
        stream: z.string().describe('project/<name>'),
        room: z.string().optional().describe('Default: patches'),
        topic: z.string().nullable().optional(),
        to_agent: z.string().nullable().optional(),
        correlation_id: z.string().nullable().optional().describe('The task this patch answers'),
        branch: z.string().nullable().optional(),
        base_commit: z.string().nullable().optional(),
        body: z.string().optional(),
        metadata: z.record(z.string(), z.unknown()).nullable().optional()
      })
      .strict()
  }
} as const satisfies Record<string, McpToolDef>

/** Names of the hub tools. */
export type HubToolName = keyof typeof HUB_MCP_TOOLS
