/**
 * An allowlist rule in the operator's words: what it allows, for whom (`Bash: npm test with any
 * further arguments, for agent mac-claude`). The "always allow" confirmation shows it before the
 * rule is saved, so the grant is read, not decoded from patterns.
 * Pure (no Node, no zod): the screen and the CLI share it.
 */
import type { RuleSpec } from './allow-rules'
import { ANY_PROGRAM, DANGEROUS_ARGS } from './dangerous-args'
import { isShellTool } from './tool-call'

/** Tools whose input pattern is a file path pattern (as `allow-rules.ts` reads them). */
const PATH_TOOLS = new Set(['Read', 'Edit', 'MultiEdit', 'Write', 'NotebookRead', 'NotebookEdit', 'LS', 'Glob', 'Grep'])

/** A pattern's text without its `\` escapes. */
const unescape = (p: string): string => p.replace(/\\(.)/g, '$1')
/** True when a pattern has an unescaped `*` or `?`. */
const hasGlob = (p: string): boolean => /(^|[^\\])(\\\\)*[*?]/.test(p)

/** Who a rule is for. */
function agentWords(pattern: string): string {
  if (pattern === '*') return 'any agent'
  return hasGlob(pattern) ? `agents matching ${pattern}` : `agent ${unescape(pattern)}`
}

/** The exceptions every wildcard of a shell rule has: a few of its program's dangerous arguments, as examples. */
function exceptions(text: string): string {
  const program = (text.trim().split(/\s+/)[0] ?? '').replace(/^.*\//, '').toLowerCase()
  const own = (DANGEROUS_ARGS[program] ?? []).map(([spec]) => spec).filter((spec) => spec.startsWith('-'))
  const examples = [...new Set([...own, ...ANY_PROGRAM.map(([spec]) => spec)])].slice(0, 3)
  return `except shell operators and arguments that change what it does (${examples.join(', ')}, …)`
}

/** What a shell rule allows. */
function commandWords(pattern: string): string {
  const prefix = /^(.*?)(?::\*| \*|(?<=[^\s\\*])\*)$/su.exec(pattern.trim())
  if (prefix && !prefix[1]!.endsWith('\\') && !hasGlob(prefix[1]!))
    return `\`${unescape(prefix[1]!.trimEnd())}\` with any further arguments ${exceptions(prefix[1]!)}`
  if (hasGlob(pattern)) return `commands matching \`${pattern}\` ${exceptions(pattern)}`
  return `exactly \`${unescape(pattern)}\``
}

/** What a path rule allows, and where its pattern starts from. */
function pathWords(pattern: string): string {
  const where = pattern.startsWith('//')
    ? ''
    : pattern.startsWith('~/')
      ? ' (from your home folder)'
      : pattern.startsWith('/')
        ? ' (from the project folder)'
        : ' (below the project folder)'
  const shown = pattern.startsWith('//') ? pattern.slice(1) : pattern
  return hasGlob(pattern) ? `files matching ${shown}${where}` : `the file ${unescape(shown)}${where}`
}

/** What a rule's input pattern allows. */
function inputWords(rule: RuleSpec): string {
  const p = rule.input_pattern
  if (p === '*') return 'any input'
  if (isShellTool(rule.tool_name)) return commandWords(p)
  if (PATH_TOOLS.has(rule.tool_name)) return pathWords(p)
  const domain = /^domain:(.+)$/u.exec(p)
  if (domain) return domain[1]!.startsWith('*.') ? `any host under ${domain[1]!.slice(2)}` : `the host ${domain[1]!} only`
  return hasGlob(p) ? `arguments matching ${p}` : `exactly the arguments ${unescape(p)}`
}

/** A rule in the operator's words: the tool, what it allows, and for whom (an "ask" rule: what it keeps for you). */
export function ruleWords(rule: RuleSpec): string {
  const tool = rule.tool_name === '*' ? 'any tool' : hasGlob(rule.tool_name) ? `tools matching ${rule.tool_name}` : unescape(rule.tool_name)
  const ask = /^ask:subagent (.+)$/u.exec(rule.input_pattern)
  if (ask)
    return `${tool}: every call from ${ask[1] === '*' ? 'any subagent' : `a ${ask[1]} subagent`} asks you (no rule allows it), for ${agentWords(rule.agent_pattern)}`
  const named = /^mcp__([^*?\\]+?)__/.exec(rule.tool_name)?.[1]
  // a wildcard over MCP server names never reaches the servers a repository configures
  const workspace =
    !named && (rule.tool_name === '*' || rule.tool_name.startsWith('mcp__')) ? '; never a tool of a project or local MCP server' : ''
  return `${tool}: ${inputWords(rule)}${workspace}, for ${agentWords(rule.agent_pattern)}`
}
