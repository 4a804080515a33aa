/**
 * What "approve and always allow" hands the harness itself, beside Muster's own signed rule: the
 * narrowest lasting grant the harness's answer can carry, built from the call (never the
 * harness's own suggestions, which can switch a whole session to accepting edits or add a folder):
 * - Claude Code (`PermissionRequest`): one `addRules` update for this session only, a rule for
 *   exactly this command, file or host (`Bash(npm test -- --run)`, `Edit(//abs/file)`,
 *   `WebFetch(domain:host)`); nothing where Claude Code's rule could mean more than the call (a
 *   `*`, which its rules read as a wildcard, MCP tools, whose rules name no arguments);
 * - OpenCode: `always` only when what OpenCode offered to remember is this call exactly (its
 *   usual offer, `npm test *`, would allow any arguments): otherwise `once`;
 * - Codex and the rest: nothing (Codex fails such an answer closed).
 * The hook sends it and the inbox says it, from this one reading, in the operator's words.
 * Pure (no Node, no zod): the hook process and the screen share it.
 */
import { readToolCall, type ToolInput } from './tool-call'

/** A call as a grant is built from it. */
export interface GrantCall {
  tool_name: string
  tool_input: ToolInput
  /** The harness's working folder (relative paths are read from it). */
  cwd?: string | null
}

/** One Claude Code permission rule (`{toolName, ruleContent}`, as its SDK's `PermissionRuleValue`). */
export interface ClaudeRule {
  toolName: string
  ruleContent: string
}

/** Claude Code's `addRules` permission update (its SDK's `PermissionUpdate`), the only kind Muster sends. */
export interface ClaudeAddRules {
  type: 'addRules'
  rules: ClaudeRule[]
  behavior: 'allow'
  destination: 'session'
}

/** Characters that make a Claude Code rule's content mean more than itself, or read ambiguously. */
const UNSAFE_CONTENT = /[*()\\\n\r]/
/** Glob characters of a path rule (gitignore-style in Claude Code). */
const PATH_GLOB = /[*?[\]{}!()\\\n\r]/
/** Tools whose Claude Code rule is `Edit(path)`: every tool that changes a file. */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit'])

/** An absolute POSIX path for a file (from `cwd` when relative), or null (Windows paths, `..`, no folder). */
function absolute(path: string, cwd: string | null | undefined): string | null {
  let p = path
  if (!p.startsWith('/')) {
    if (!cwd || !cwd.startsWith('/')) return null
    p = `${cwd.replace(/\/+$/, '')}/${p}`
  }
  const parts = p.split('/').filter((s) => s !== '' && s !== '.')
  if (parts.some((s) => s === '..')) return null
  return `/${parts.join('/')}`
}

/**
 * The one Claude Code rule that allows exactly this call and nothing else, or null when its rule
 * syntax cannot say that (then Muster's own rule alone answers the next calls).
 */
export function claudeExactRule(call: GrantCall): ClaudeRule | null {
  const tc = readToolCall(call.tool_name, call.tool_input)
  if (tc.kind === 'bash') {
    if (tc.tool !== 'Bash') return null
    const command = tc.command.trim()
    if (command === '' || UNSAFE_CONTENT.test(command)) return null
    return { toolName: 'Bash', ruleContent: command }
  }
  if (tc.kind === 'edit' || tc.kind === 'write' || (tc.kind === 'path' && (tc.tool === 'Read' || tc.tool === 'NotebookEdit'))) {
    const tool = EDIT_TOOLS.has(tc.tool) ? 'Edit' : tc.tool === 'Read' ? 'Read' : null
    if (!tool || PATH_GLOB.test(tc.path)) return null
    const abs = absolute(tc.path, call.cwd)
    return abs ? { toolName: tool, ruleContent: `/${abs}` } : null
  }
  if (tc.kind === 'fetch' && tc.tool === 'WebFetch') {
    try {
      const u = new URL(tc.url)
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return null
      const host = u.hostname.toLowerCase()
      return /^[a-z0-9.-]+$/.test(host) ? { toolName: 'WebFetch', ruleContent: `domain:${host}` } : null
    } catch {
      return null
    }
  }
  return null
}

/** The `updatedPermissions` of Claude Code's "always" answer: this call's exact rule, for the session; null: none. */
export function claudeAlwaysUpdates(call: GrantCall): ClaudeAddRules[] | null {
  const rule = claudeExactRule(call)
  return rule ? [{ type: 'addRules', rules: [rule], behavior: 'allow', destination: 'session' }] : null
}

/** How a Claude Code rule is written in its settings (`Bash(npm test)`). */
export function claudeRuleText(rule: ClaudeRule): string {
  return `${rule.toolName}(${rule.ruleContent})`
}

/**
 * True when what OpenCode offered to remember on "always" (its `always` patterns) is this call
 * exactly: every pattern literal (no `*` or `?`) and one of the call's own patterns (or its command).
 */
export function opencodeAlwaysIsExact(always: readonly string[] | null | undefined, call: GrantCall): boolean {
  if (!always || always.length === 0) return false
  const own = new Set<string>()
  const patterns = call.tool_input.patterns
  if (Array.isArray(patterns)) for (const p of patterns) if (typeof p === 'string') own.add(p)
  if (typeof call.tool_input.command === 'string') own.add(call.tool_input.command)
  return always.every((p) => !/[*?]/.test(p) && own.has(p))
}

/** What a request tells about the harness's own grant: its harness, call, and what the harness offered to remember. */
export interface GrantRequest extends GrantCall {
  harness: string | null
  /** The hook event that asked: only Claude Code's `PermissionRequest` answer can carry a grant. */
  hook_event_name?: string | null
  /** OpenCode's `always` patterns, as its hook stored them. */
  harness_always?: readonly string[] | null
  /** An allow needs the operator's presence: no lasting grant reaches the harness. */
  presence_required?: boolean
}

/** In the operator's words: what the harness itself keeps when this request is approved with "always". */
export function nativeGrantWords(r: GrantRequest): string {
  if (r.presence_required)
    return 'This call needs your presence, so the agent’s tool keeps nothing: Muster asks you again for each such call.'
  switch (r.harness) {
    case 'claude-code': {
      if (r.hook_event_name && r.hook_event_name !== 'PermissionRequest')
        return `Claude Code is told “allow” for this call only (its ${r.hook_event_name} answer keeps nothing); Muster’s rule answers the next ones.`
      const rule = claudeExactRule(r)
      return rule
        ? `Claude Code also keeps ${claudeRuleText(rule)} for this session only (exactly this ${rule.toolName === 'Bash' ? 'command' : rule.toolName === 'WebFetch' ? 'host' : 'file'}); never its permission mode or a folder.`
        : 'Claude Code is told “allow” once and keeps nothing (its rules could not say exactly this call); Muster’s rule answers the next ones.'
    }
    case 'opencode': {
      const always = r.harness_always ?? []
      if (opencodeAlwaysIsExact(always, r)) return `OpenCode also keeps ${always.join(', ')} for this session (exactly this call).`
      return always.length
        ? `OpenCode is answered “once”: what it offered to keep (${always.join(', ')}) is broader than this call; Muster’s rule answers the next ones.`
        : 'OpenCode is answered “once”; Muster’s rule answers the next ones.'
    }
    case 'codex':
      return 'Codex is told “allow” and keeps nothing (it refuses lasting grants in a hook’s answer); Muster’s rule answers the next ones.'
    default:
      return 'The agent’s tool is told “allow” and keeps nothing; Muster’s rule answers the next ones.'
  }
}
