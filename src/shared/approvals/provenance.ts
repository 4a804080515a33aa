/**
 * Where a tool call comes from, beyond the agent and its harness: the MCP server of an MCP tool
 * (its name, where it was configured, whether the app says it is its own), the subagent that made
 * the call, the harness's permission mode, and the skill or slash command whose shell line it is.
 * Read from a hook payload (Claude Code's `BaseHookInput`, `mcp_server`, `PreSkillShellCommand`'s
 * fields; Codex sends the same names) and again from a stored request, which any writer of the hub
 * could have written: every field is checked, anything else is dropped. Also the payload's fields no
 * adapter knows, kept verbatim (bounded), so the next contract change loses nothing.
 * Pure (no Node, no zod): the hook process and the screen share it.
 */

/** An MCP tool's server as the harness describes it. */
export interface McpServerOrigin {
  name: string
  /** `sdk | plugin | user | project | local | dynamic | managed | enterprise | claudeai | agent`: an open set. */
  source: string
  /** The app that started the session says the server is its own (absent: unknown). */
  built_in?: true
}

/** A skill's or slash command's shell line (Claude Code's `PreSkillShellCommand`). */
export interface SkillOrigin {
  command_name: string
  command_source?: string
  /** Who started the load: `user`, `claude` or `other`. */
  invoked_by?: string
}

/** Where a call comes from; every field optional (absent: the harness did not say). */
export interface CallProvenance {
  mcp_server?: McpServerOrigin
  /** The subagent's id (absent on the main thread). */
  agent_id?: string
  /** The agent type: a subagent's, or the main thread's in a session started with `--agent`. */
  agent_type?: string
  /** The harness's permission mode when it asked (`default`, `acceptEdits`, `plan`, `auto`, ...). */
  permission_mode?: string
  skill?: SkillOrigin
}

/** Longest text kept of one provenance field. */
const MAX_FIELD = 256
/** The unknown fields of a payload are kept up to this size (their JSON); beyond, the largest are left out by name. */
export const MAX_EXTRA_BYTES = 8 * 1024

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.slice(0, MAX_FIELD) : undefined)
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** An object without its undefined fields, or undefined when none is left. */
function compact<T extends object>(o: T): T | undefined {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
  return Object.keys(kept).length ? kept : undefined
}

/** The MCP server of a payload or stored request, or undefined. */
function mcpServerOf(v: unknown): McpServerOrigin | undefined {
  if (!isObject(v)) return undefined
  const name = text(v.name)
  const source = text(v.source)
  if (!name || !source) return undefined
  return { name, source, ...(v.built_in === true ? { built_in: true as const } : {}) }
}

/** The skill of a payload's flat fields (`command_name`, ...) or a stored request's `skill` object. */
function skillOf(v: Record<string, unknown>): SkillOrigin | undefined {
  const command_name = text(v.command_name)
  if (!command_name) return undefined
  return { command_name, ...compact({ command_source: text(v.command_source), invoked_by: text(v.invoked_by) }) }
}

/**
 * The provenance in a hook payload (Claude Code and Codex field names), or undefined when it says
 * nothing. Wrong types are dropped, never an error: provenance only informs.
 */
export function provenanceOfPayload(o: Record<string, unknown>): CallProvenance | undefined {
  return compact({
    mcp_server: mcpServerOf(o.mcp_server),
    agent_id: text(o.agent_id),
    agent_type: text(o.agent_type),
    permission_mode: text(o.permission_mode),
    skill: skillOf(o)
  })
}

/** The provenance stored with a request (its `provenance` metadata), checked field by field. */
export function readProvenance(v: unknown): CallProvenance | null {
  if (!isObject(v)) return null
  return (
    compact({
      mcp_server: mcpServerOf(v.mcp_server),
      agent_id: text(v.agent_id),
      agent_type: text(v.agent_type),
      permission_mode: text(v.permission_mode),
      skill: isObject(v.skill) ? skillOf(v.skill) : undefined
    }) ?? null
  )
}

/**
 * The fields of a payload that are not in `known`, verbatim, as long as their JSON fits
 * `MAX_EXTRA_BYTES` (the smallest first; the rest are named in `_dropped`). Undefined when there are none.
 */
export function extraFields(o: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> | undefined {
  const unknown = Object.keys(o).filter((k) => !known.has(k))
  if (!unknown.length) return undefined
  const sized = unknown.map((k) => ({ k, bytes: new TextEncoder().encode(JSON.stringify({ [k]: o[k] }) ?? '').length }))
  sized.sort((a, b) => a.bytes - b.bytes || (a.k < b.k ? -1 : 1))
  const kept: Record<string, unknown> = {}
  const dropped: string[] = []
  let total = 2
  for (const { k, bytes } of sized) {
    if (total + bytes <= MAX_EXTRA_BYTES) {
      kept[k] = o[k]
      total += bytes
    } else dropped.push(k.slice(0, MAX_FIELD))
  }
  if (dropped.length) kept._dropped = dropped.sort()
  return kept
}

/** Provenance as the operator reads it, one phrase each: `MCP server github (project)`, `subagent code-reviewer`, ... */
export function provenanceWords(p: CallProvenance | null | undefined): string[] {
  if (!p) return []
  const words: string[] = []
  if (p.skill)
    words.push(
      `skill ${p.skill.command_name}${p.skill.command_source ? ` (${p.skill.command_source})` : ''}${p.skill.invoked_by ? `, invoked by ${p.skill.invoked_by}` : ''}`
    )
  if (p.mcp_server) words.push(`MCP server ${p.mcp_server.name} (${p.mcp_server.source}${p.mcp_server.built_in ? ', built in' : ''})`)
  if (p.agent_id) words.push(`subagent ${p.agent_type ?? 'of unknown type'} ${p.agent_id}`)
  else if (p.agent_type) words.push(`agent ${p.agent_type}`)
  if (p.permission_mode) words.push(`mode ${p.permission_mode}`)
  return words
}
