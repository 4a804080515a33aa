/**
 * What a harness's tool call is, read from its `tool_name` and `tool_input` (Claude Code and
 * Codex hook payloads): the Bash command, the file and edits of Edit/MultiEdit/Write, the server,
 * tool and arguments of an MCP call. One reading, used by the one-line summary the hook writes
 * into the `approval.request` body, by allowlist matching and by the Approvals screen's preview.
 * Pure: no Node, no zod (the hook process must start fast).
 */

/** A tool input as the harness sends it (any JSON object). */
export type ToolInput = Record<string, unknown>

/** One replacement of an Edit / MultiEdit call. */
export interface TextEdit {
  old_string: string
  new_string: string
  replace_all: boolean
}

/** A tool call, by kind. */
export type ToolCall =
  | { kind: 'bash'; tool: string; command: string; description: string | null }
  | { kind: 'edit'; tool: string; path: string; edits: TextEdit[] }
  | { kind: 'write'; tool: string; path: string; content: string }
  | { kind: 'path'; tool: string; path: string }
  | { kind: 'fetch'; tool: string; url: string; prompt: string | null }
  | { kind: 'mcp'; tool: string; server: string; name: string; args: ToolInput }
  | { kind: 'other'; tool: string; args: ToolInput }

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/**
 * Tools whose input is a shell command: Claude Code's Bash (Codex names its shell and exec tools
 * Bash too), Copilot CLI's and OpenCode's `bash`, Gemini CLI's `run_shell_command`, Cursor's `Shell`.
 */
const SHELL_TOOLS = new Set(['Bash', 'bash', 'shell', 'exec_command', 'local_shell', 'run_shell_command', 'Shell'])

/** True for a tool whose input is a shell command. */
export function isShellTool(tool: string): boolean {
  return SHELL_TOOLS.has(tool)
}

/**
 * Why a call's input cannot be matched or turned into a rule, or null when it can: a shell tool
 * without a readable command, or no arguments at all. A rule for such a call would allow calls
 * whose arguments nobody saw.
 */
export function unreadableInput(tool: string, input: ToolInput): string | null {
  if (SHELL_TOOLS.has(tool) && commandOf(input) === null) return `${tool} without a readable command`
  if (Object.keys(input).length === 0) return `${tool} with no arguments`
  return null
}
/** Tools that read or search under a path. */
const PATH_TOOLS = new Set(['Read', 'NotebookRead', 'LS', 'Glob', 'Grep', 'NotebookEdit'])

/** The command of a shell call: a string, or Codex's argv array (joined with spaces). */
function commandOf(input: ToolInput): string | null {
  const c = input.command ?? input.cmd
  if (typeof c === 'string') return c
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) {
    // Codex sends ["bash", "-lc", "<script>"]: the script is what the operator needs to read.
    const argv = c as string[]
    if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!
    return argv.join(' ')
  }
  return null
}

/** Reads a tool call. Unknown tools and inputs missing their main field are `other`. */
export function readToolCall(tool: string, input: ToolInput): ToolCall {
  if (SHELL_TOOLS.has(tool)) {
    const command = commandOf(input)
    if (command !== null) return { kind: 'bash', tool, command, description: str(input.description) ?? str(input.justification) }
  }
  const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path)
  if ((tool === 'Edit' || tool === 'MultiEdit') && path !== null) {
    const raw = tool === 'MultiEdit' && Array.isArray(input.edits) ? (input.edits as unknown[]) : [input]
    const edits = raw.flatMap((e): TextEdit[] => {
      const o = e as ToolInput
      const oldS = str(o?.old_string)
      const newS = str(o?.new_string)
      return oldS !== null && newS !== null ? [{ old_string: oldS, new_string: newS, replace_all: o.replace_all === true }] : []
    })
    if (edits.length) return { kind: 'edit', tool, path, edits }
  }
  if (tool === 'Write' && path !== null && typeof input.content === 'string') return { kind: 'write', tool, path, content: input.content }
  if (PATH_TOOLS.has(tool) && (path !== null || typeof input.pattern === 'string'))
    return { kind: 'path', tool, path: path ?? String(input.pattern) }
  if ((tool === 'WebFetch' || tool === 'WebSearch') && (typeof input.url === 'string' || typeof input.query === 'string')) {
    return { kind: 'fetch', tool, url: str(input.url) ?? String(input.query), prompt: str(input.prompt) }
  }
  const mcp = /^mcp__(.+?)__(.+)$/.exec(tool)
  if (mcp) return { kind: 'mcp', tool, server: mcp[1]!, name: mcp[2]!, args: input }
  return { kind: 'other', tool, args: input }
}

/** JSON with object keys sorted at every level (the same input always gives the same text). */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as ToolInput).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )
}

/** Collapses whitespace and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** The one-line human summary of a call (the `approval.request` body): "Bash: git push origin main". */
export function summarizeToolCall(call: ToolCall): string {
  switch (call.kind) {
    case 'bash':
      return `${call.tool}: ${oneLine(call.command)}`
    case 'edit':
      return `${call.tool}: ${call.path}${call.edits.length > 1 ? ` (${call.edits.length} edits)` : ''}`
    case 'write':
      return `${call.tool}: ${call.path} (${call.content.split('\n').length} lines)`
    case 'path':
      return `${call.tool}: ${call.path}`
    case 'fetch':
      return `${call.tool}: ${call.url}`
    case 'mcp':
      return oneLine(`${call.server} › ${call.name} ${stableJson(call.args)}`)
    case 'other':
      return oneLine(`${call.tool} ${stableJson(call.args)}`)
  }
}

/** What allowlist input patterns are matched against, and how `*` behaves there. */
export interface MatchSubject {
  text: string
  /** `command`: `*` never spans shell operators; `path`: `..` segments need a literal `..`. */
  kind: 'command' | 'path' | 'text'
}

/** The text of a call that allowlist input patterns are matched against. */
export function matchSubject(call: ToolCall): MatchSubject {
  switch (call.kind) {
    case 'bash':
      return { text: call.command, kind: 'command' }
    case 'edit':
    case 'write':
    case 'path':
      return { text: call.path, kind: 'path' }
    case 'fetch':
      return { text: call.url, kind: 'text' }
    case 'mcp':
    case 'other':
      return { text: stableJson(call.args), kind: 'text' }
  }
}

/** Two requests are identical (bulk-approvable together) when tool and input are. */
export function callSignature(tool: string, input: ToolInput): string {
  return `${tool}\u0000${stableJson(input)}`
}
