/**
 * The tools `muster mcp` serves, declared as MCP servers declare them: a description and a JSON
 * Schema input (`tools/list` answers exactly these).
 * - MUSE's six: names, descriptions and schemas identical to MUSE's own server
 *   (`fixtures/muse-mcp/muse-mcp-tools-list.json`).
 * - MemPalace's eight logstream tools, with the argument names, types and required lists of
 *   upstream's newest `TOOLS` table (mempalace/mcp_server/schemas.py, tools_coord.py): on
 *   list/wait `from_agent` is the caller's identity and `writer` filters by author; `task_create`,
 *   `artifact_put` and `artifact_get` included. The descriptions are Muster's own words.
 */

/** One property of a tool's input, as JSON Schema types it. */
export interface McpProperty {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array'
  description: string
  enum?: readonly string[]
  items?: { type: 'string' }
}

/** A tool's input schema (an object; `required` lists names in the handler's order). */
export interface McpInputSchema {
  type: 'object'
  properties: Record<string, McpProperty>
  required: readonly string[]
}

/** One tool: its description and input schema. */
export interface McpToolDef {
  description: string
  inputSchema: McpInputSchema
}

const str = (description: string): McpProperty => ({ type: 'string', description })
const int = (description: string): McpProperty => ({ type: 'integer', description })
const obj = (description: string): McpProperty => ({ type: 'object', description })
const input = (properties: Record<string, McpProperty>, required: readonly string[] = []): McpInputSchema => ({
  type: 'object',
  properties,
  required
})

/** MUSE's tools, exactly as MUSE's own server lists them. */
export const MUSE_MCP_TOOLS = {
  muse_get_status: {
    description:
      'Get project status by reading all L0 header lines from MUSE role files. Returns a concise (~400 token) overview of the entire project state across all roles (build, growth, qa, gm, etc).',
    inputSchema: input({})
  },
  muse_list_roles: {
    description: 'List all available MUSE role files in the project. Returns role names and their L0 status summaries.',
    inputSchema: input({})
  },
  muse_get_role: {
    description:
      'Read the full content of a specific MUSE role file (L1 deep read). Use muse_get_status first for an overview, then this for details.',
    inputSchema: input({ role: str('Role file name without extension (e.g., build, growth, qa, gm, strategy)') }, ['role'])
  },
  muse_send_directive: {
    description:
      'Send a cross-role directive using the MUSE directive protocol (📡). Creates a directive entry in the specified role file.',
    inputSchema: input(
      {
        target_role: str('Target role file name (e.g., build, growth)'),
        directive_id: str('Directive ID (e.g., S042)'),
        title: str('One-line directive title'),
        body: str('Directive body content')
      },
      ['target_role', 'directive_id', 'title', 'body']
    )
  },
  muse_write_memory: {
    description: "Append content to today's daily memory log (memory/YYYY-MM-DD.md). Creates the file if it doesn't exist.",
    inputSchema: input(
      {
        content: str("Content to append to today's memory file"),
        section: str('Optional section header to add before content (e.g., Build Session)')
      },
      ['content']
    )
  },
  muse_search_memory: {
    description: 'Search across MUSE memory files (memory/*.md) and long-term knowledge (MEMORIES.md) for a query string.',
    inputSchema: input(
      {
        query: str('Search query (grep pattern)'),
        scope: {
          type: 'string',
          enum: ['all', 'recent', 'longterm'],
          description: 'Search scope: all (memory/ + MEMORIES.md), recent (last 3 days memory/), longterm (MEMORIES.md only). Default: all'
        }
      },
      ['query']
    )
  }
} as const satisfies Record<string, McpToolDef>

/** Names of MUSE's tools. */
export type MuseToolName = keyof typeof MUSE_MCP_TOOLS

const IDENTITY = 'Your agent identity (e.g. laptop:claude:orbit)'
const NOT_A_FILTER = 'Your agent identity (optional); never narrows the result: filter authors with writer'
/** The read filters of list and wait (upstream's names and types). */
const FILTERS = {
  stream: str('Only this stream, e.g. project/orbit (optional)'),
  room: str('Only this room (optional)'),
  topic: str('Only this topic (optional)'),
  type: str('Only this event type (optional)'),
  to_agent: str("Only events addressed to this agent; '*' broadcasts match too (optional)"),
  from_agent: str(NOT_A_FILTER),
  writer: str('Only events written by this agent (optional)'),
  correlation_id: str('Only this task or conversation (optional)'),
  status: str('Only this status (optional)')
}
const STATUS = str('open, claimed, ready, applied, blocked, failed or superseded (optional)')

/** MemPalace's logstream tools (upstream names, argument names, types and required lists). */
export const HUB_MCP_TOOLS = {
  mempalace_event_append: {
    description:
      'Append one immutable coordination event (task.request, task.reply, status, ...). Corrections are new events; every MemPalace write rule applies.',
    inputSchema: input(
      {
        type: str('Event type, e.g. task.request'),
        stream: str('Stream, e.g. project/orbit'),
        room: str('Room: delegation, patches, reviews, status, ...'),
        topic: str('Topic grouping related work (optional)'),
        from_agent: str(IDENTITY),
        to_agent: str("Target agent, or '*' for everyone (optional)"),
        correlation_id: str('Task or conversation id (optional)'),
        branch: str('Git branch (optional)'),
        base_commit: str('Git commit the work started from (optional)'),
        status: STATUS,
        body: str('Verbatim text (optional, at most 256 KiB)'),
        metadata: obj('Extra fields, stored exactly as given (optional)'),
        artifact_ids: { type: 'array', items: { type: 'string' }, description: 'Stored artifacts this event references (optional)' }
      },
      ['type', 'stream', 'room', 'from_agent']
    )
  },
  mempalace_task_create: {
    description:
      'Create one complete task.request for another agent; returns the stored event and a ready-to-paste handoff line. Show the task to your user before creating it.',
    inputSchema: input(
      {
        project: str('Project name'),
        from_agent: str(IDENTITY),
        to_agent: str('The worker agent'),
        goal: str('The goal, verbatim'),
        branch: str('Git branch for the work'),
        base_commit: str('Hexadecimal commit id the worker starts from (not a branch or tag)'),
        done: str('The definition of done, verbatim')
      },
      ['project', 'from_agent', 'to_agent', 'goal', 'branch', 'base_commit', 'done']
    )
  },
  mempalace_event_list: {
    description:
      'List coordination events. Resume with since_event_id (strictly after it; never with a time), page back with before_event_id; order defaults to asc after a cursor, else desc. writer filters authors; from_agent is you and never filters. preview=true cuts bodies to 200 characters.',
    inputSchema: input({
      ...FILTERS,
      since_event_id: str('Only events after this id in append order (optional)'),
      before_event_id: str('Only events before this id in append order (optional)'),
      since_created_at: str('Only events at or after this time, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ: a window, not a cursor (optional)'),
      limit: int('At most this many events (default 50, at most 500)'),
      order: str("'asc' or 'desc' (optional)"),
      preview: { type: 'boolean', description: 'Cut bodies to 200 characters (default false)' }
    })
  },
  mempalace_event_wait: {
    description:
      'Wait until a matching event exists or the timeout passes (default 60000 ms, at most 300000). A timeout is a normal result: {"timed_out": true, "events": []}; call again with since_event_id.',
    inputSchema: input({
      ...FILTERS,
      since_event_id: str('Only events after this id (optional)'),
      since_created_at: str('Only events at or after this time: a window, not a cursor (optional)'),
      timeout_ms: int('How long to wait, in ms (default 60000, at most 300000)'),
      limit: int('At most this many events on a match (default 50)')
    })
  },
  mempalace_event_ack: {
    description: 'Acknowledge an event: appends an event.ack back to its writer, correlation copied. The target is never changed.',
    inputSchema: input(
      {
        event_id: str('The event to acknowledge'),
        from_agent: str(IDENTITY),
        status: STATUS,
        body: str('Verbatim notes (optional)'),
        topic: str("Topic (default: the target's, optional)")
      },
      ['event_id', 'from_agent']
    )
  },
  mempalace_artifact_put: {
    description:
      'Store exact content (patch, file, log, json, note) for a handoff; returns its id, sha256 and size. UTF-8 text, at most 4 MiB.',
    inputSchema: input(
      {
        kind: str('patch, file, log, json or note'),
        content: str('The content, exactly'),
        created_by: str(IDENTITY),
        metadata: obj('Extra fields (optional)')
      },
      ['kind', 'content', 'created_by']
    )
  },
  mempalace_artifact_get: {
    description: 'Fetch an artifact by id: its exact content and sha256, to verify before use.',
    inputSchema: input({ artifact_id: str('The artifact id') }, ['artifact_id'])
  },
  mempalace_patch_submit: {
    description: 'Store a patch artifact and append its patch.ready event in one call (handing finished work to another agent).',
    inputSchema: input(
      {
        content: str('The unified diff, exactly (end it with a newline; no CRLF)'),
        from_agent: str(IDENTITY),
        stream: str('Stream, e.g. project/orbit'),
        room: str('Room (default patches)'),
        topic: str('Topic (optional)'),
        to_agent: str("Target agent or '*' (optional)"),
        correlation_id: str('The task this patch answers (optional)'),
        branch: str('Git branch (optional)'),
        base_commit: str('Git commit the patch applies to (optional)'),
        body: str('Verbatim notes (optional)'),
        metadata: obj('Extra fields (optional)')
      },
      ['content', 'from_agent', 'stream']
    )
  }
} as const satisfies Record<string, McpToolDef>

/** Names of the hub tools. */
export type HubToolName = keyof typeof HUB_MCP_TOOLS
