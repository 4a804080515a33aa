/**
 * Allowlist rules: which tool calls Muster approves without asking (spec/hub-logstream.md section
 * 9: such a decision is recorded with `decided_by = allowlist:<rule>`). A rule is an agent pattern,
 * a tool name pattern and an input pattern, all globs: `*` any run of characters, `?` one
 * character, `\` makes the next character literal, the whole text must match.
 *
 * Safety, so a rule allows what it reads as:
 * - in a shell command, `*` and `?` never match `; & | < > $ \`` or a line break, so
 *   `npm test*` allows `npm test -- --run` but not `npm test && rm -rf ~` (write operators
 *   literally to allow them);
 * - in a path, a `..` segment matches only where the pattern spells `..` itself;
 * - an input pattern of exactly `*` means "any input" for every tool.
 * Pure (no Node, no zod): the hook process and the screen share it.
 */
import { matchSubject, readToolCall, stableJson, type MatchSubject, type ToolInput } from './tool-call'

/** A rule's three patterns. */
export interface RuleSpec {
  agent_pattern: string
  tool_name: string
  input_pattern: string
}

/** A tool call to match: who asks, which tool, its input. */
export interface CallToMatch {
  agent: string
  tool_name: string
  tool_input: ToolInput
}

/** Characters `*` and `?` never match inside a shell command. */
const SHELL_OPERATORS = ';&|<>$`\n\r'
/** Longest pattern accepted. */
export const MAX_PATTERN_CHARS = 1000

/** Escapes RegExp syntax (only the characters the `u` flag allows escaping). */
const escapeRe = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** Compiles a glob into an anchored RegExp (shell-safe wildcards for commands). */
export function globRegExp(pattern: string, shellSafe = false): RegExp {
  const any = shellSafe ? '[^;&|<>$`\\n\\r]' : '[\\s\\S]'
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]!)
    else if (c === '*') re += `${any}*`
    else if (c === '?') re += any
    else re += escapeRe(c)
  }
  return new RegExp(`^${re}$`, 'u')
}

/** Escapes glob characters so a literal text matches only itself. */
export function globLiteral(text: string): string {
  return text.replace(/[\\*?]/g, '\\$&')
}

const hasDotDot = (path: string): boolean => /(^|[\\/])\.\.([\\/]|$)/.test(path)

/** True when the input pattern matches the call's subject. */
export function inputMatches(pattern: string, subject: MatchSubject): boolean {
  if (pattern === '*') return true
  if (subject.kind === 'path' && hasDotDot(subject.text) && !pattern.includes('..')) return false
  return globRegExp(pattern, subject.kind === 'command').test(subject.text)
}

/** True when the rule allows the call. */
export function ruleMatches(rule: RuleSpec, call: CallToMatch): boolean {
  if (!globRegExp(rule.agent_pattern).test(call.agent)) return false
  if (!globRegExp(rule.tool_name).test(call.tool_name)) return false
  return inputMatches(rule.input_pattern, matchSubject(readToolCall(call.tool_name, call.tool_input)))
}

/** How a rule is named in `decided_by` and on screen: `Bash(npm test*)`, plus ` for <agents>` unless any agent. */
export function ruleLabel(rule: RuleSpec): string {
  const agents = rule.agent_pattern === '*' ? '' : ` for ${rule.agent_pattern}`
  return `${rule.tool_name}(${rule.input_pattern})${agents}`
}

/** Why a rule is unusable, or null when it is fine. */
export function ruleProblem(rule: RuleSpec): string | null {
  const fields: [keyof RuleSpec, string][] = [
    ['agent_pattern', 'agent pattern'],
    ['tool_name', 'tool name'],
    ['input_pattern', 'input pattern']
  ]
  for (const [key, name] of fields) {
    const v = rule[key]
    if (typeof v !== 'string' || v.trim() === '') return `${name} must not be empty (use * for any)`
    if (v.length > MAX_PATTERN_CHARS) return `${name} is longer than ${MAX_PATTERN_CHARS} characters`
    if ([...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return `${name} contains control characters`
    if (v !== v.trim()) return `${name} must not start or end with spaces`
  }
  if (rule.tool_name === '*' && rule.input_pattern === '*')
    return 'a rule for any tool with any input would approve everything: name a tool or an input pattern'
  return null
}

/** Leading words of a command that name what it does (`git push`, `npm run lint`), at most 3. */
function commandPrefix(command: string): { prefix: string; rest: boolean } {
  const tokens = command.trim().split(/\s+/)
  const words: string[] = []
  for (const t of tokens) {
    if (words.length === 3 || !/^[A-Za-z0-9_.:@+=-]+$/.test(t) || t.startsWith('-')) break
    words.push(t)
    // `npm run lint`, `git push`: the runner plus its subcommand(s); plain tools stop at one word.
    if (words.length === 1 && !/^(npm|pnpm|yarn|npx|bun|git|cargo|go|uv|pip|python3?|make|docker|kubectl|gh|mempalace|muster)$/.test(t))
      break
    if (words.length === 2 && !/^(run|exec|x)$/.test(t)) break
  }
  return { prefix: words.join(' '), rest: tokens.length > words.length }
}

/** The rule "approve and always allow this" offers for a call (shown, and editable, before saving). */
export function proposeRule(call: CallToMatch): RuleSpec {
  const tc = readToolCall(call.tool_name, call.tool_input)
  let input: string
  switch (tc.kind) {
    case 'bash': {
      const hasOperators = [...SHELL_OPERATORS].some((c) => tc.command.includes(c))
      const { prefix, rest } = commandPrefix(tc.command)
      input = hasOperators || !prefix ? globLiteral(tc.command.trim()) : rest ? `${globLiteral(prefix)} *` : globLiteral(prefix)
      break
    }
    case 'edit':
    case 'write':
    case 'path':
      input = globLiteral(tc.path)
      break
    case 'fetch':
      input = globLiteral(tc.url)
      break
    case 'mcp':
      input = '*'
      break
    case 'other':
      input = globLiteral(stableJson(tc.args))
      break
  }
  return { agent_pattern: globLiteral(call.agent), tool_name: globLiteral(call.tool_name), input_pattern: input }
}
