/**
 * Allowlist rules: which tool calls Muster approves without asking (spec/hub-logstream.md section
 * 9: such a decision is recorded with `decided_by = allowlist:<rule>`). A rule is an agent pattern,
 * a tool name pattern and an input pattern. Input patterns read as Claude Code's own permission
 * rules (code.claude.com/docs/en/permissions), never broader:
 * - shell commands: `npm run build` is that command exactly; `npm run test *` and the legacy
 *   `npm run test:*` are prefix rules with a word boundary (`npm run test`, `npm run test -x`, never
 *   `npm run testify`); a trailing `*` glued to a word is read the same way (narrower than Claude
 *   Code, which lets `ls*` match `lsof`); `*` elsewhere matches any run of characters; no `*` ever
 *   matches `; & | < > $ \`` or a line break, so a prefix rule never allows `safe && other`, and none
 *   covers an argument that changes what the command does (`dangerous-args.ts`: `npm test *` never
 *   allows `--script-shell=...`, `find *` never `-delete`); such an argument is allowed only where
 *   the rule writes it out;
 * - file paths (Read, Edit, Write, ...): gitignore-style, `*` and `?` within one path segment, `**`
 *   across segments; `//abs/path` from the filesystem root, `~/path` from the home folder, `/path`
 *   from the project (the call's working folder), `path` and `./path` from the working folder (a
 *   pattern without a slash matches that name in any folder below it); a path with a `..` segment
 *   never matches, and a path pattern may not contain one;
 * - web fetches: `domain:example.com` (that host only) or `domain:*.example.com` (its subdomains);
 *   in a URL glob `*` never crosses `/ ? # @`;
 * - MCP and other arguments (their JSON): `*` stays inside one JSON string and one path segment,
 *   `**` inside one string; arguments with a `..` path segment never match.
 * An input pattern of exactly `*` means "any input" for every tool. `?` is one character, `\`
 * makes the next character literal, the whole text must match.
 * Pure (no Node, no zod): the hook process and the screen share it.
 */
import { coveredDanger, dangerousArgs, dangerWhy } from './dangerous-args'
import type { CallProvenance } from './provenance'
import { readToolCall, stableJson, unreadableInput, type ToolInput } from './tool-call'

/** A rule's three patterns. */
export interface RuleSpec {
  agent_pattern: string
  tool_name: string
  input_pattern: string
}

/** A tool call to match: who asks, which tool, its input; `cwd` and `home` anchor relative path patterns. */
export interface CallToMatch {
  agent: string
  tool_name: string
  tool_input: ToolInput
  /** The harness's working folder (the project); without it, relative path patterns match nothing. */
  cwd?: string | null
  /** The operator's home folder; without it, `~/` patterns match nothing. */
  home?: string | null
  /** Where the call comes from, as the harness said (`provenance.ts`): an MCP tool's server and its source. */
  provenance?: CallProvenance | null
}

/** Characters `*` and `?` never match inside a shell command. */
const SHELL_OPERATORS = ';&|<>$`\n\r'
/** Longest pattern accepted. */
export const MAX_PATTERN_CHARS = 1000
/** Tools whose input pattern is a file path pattern. */
const PATH_TOOLS = new Set(['Read', 'Edit', 'MultiEdit', 'Write', 'NotebookRead', 'NotebookEdit', 'LS', 'Glob', 'Grep'])

/** Escapes RegExp syntax (only the characters the `u` flag allows escaping). */
const escapeRe = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** What `*`, `**` and `?` match in a glob, as RegExp character-class bodies. */
interface GlobChars {
  /** One `*` (and `?`). */
  star: string
  /** `**`; null when `**` is two stars. */
  globstar: string | null
}

const ANY: GlobChars = { star: '[\\s\\S]', globstar: null }
const SHELL: GlobChars = { star: '[^;&|<>$`\\n\\r]', globstar: null }
const PATH: GlobChars = { star: '[^/]', globstar: '[\\s\\S]' }
const URL_CHARS: GlobChars = { star: '[^/?#@\\\\\\s]', globstar: '[^\\s]' }
const JSON_TEXT: GlobChars = { star: '[^"/]', globstar: '[^"]' }

/** Compiles a glob body into RegExp source (not anchored); `capture`: each `*` and `?` is a group (what it matched). */
function globSource(pattern: string, chars: GlobChars, capture = false): string {
  const group = (body: string): string => (capture ? `(${body})` : body)
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]!)
    else if (c === '*' && chars.globstar && pattern[i + 1] === '*') {
      while (pattern[i + 1] === '*') i++
      // `a/**/b` also matches `a/b`
      if (pattern[i + 1] === '/' && (i < 2 || pattern[i - 2] === '/')) {
        re += `(?:${chars.globstar}*/)?`
        i++
      } else re += `${chars.globstar}*`
    } else if (c === '*') re += group(`${chars.star}*`)
    else if (c === '?') re += group(chars.star)
    else re += escapeRe(c)
  }
  return re
}

/** Compiles a plain glob into an anchored RegExp (`*` any run of characters, or no shell operator when `shellSafe`). */
export function globRegExp(pattern: string, shellSafe = false): RegExp {
  return new RegExp(`^${globSource(pattern, shellSafe ? SHELL : ANY)}$`, 'u')
}

/** Escapes glob characters so a literal text matches only itself. */
export function globLiteral(text: string): string {
  return text.replace(/[\\*?]/g, '\\$&')
}

/** True when a path has a `..` segment. */
const hasDotDot = (path: string): boolean => /(^|[\\/])\.\.([\\/]|$)/.test(path)
/** True when a JSON text holds a string with a `..` path segment. */
const jsonHasDotDot = (json: string): boolean => /(^|["\\/])\.\.(["\\/]|$)/.test(json)

/** How a shell command stands against a Bash rule: allowed, or not, and why not where a wildcard was refused. */
export interface CommandVerdict {
  matches: boolean
  /** The rule's text would have matched, but a wildcard would have covered what none may: why. */
  declined?: string
}

/** Builds the RegExp of a Bash rule (each wildcard a group), with the given characters for `*`. */
function commandRegExp(pattern: string, chars: GlobChars): RegExp {
  const p = pattern.trim()
  // `prefix:*` (legacy), `prefix *` and a trailing `prefix*`: the prefix, then nothing or a space and more
  const prefix = /^(.*?)(?::\*| \*|(?<=[^\s\\*])\*)$/su.exec(p)
  if (prefix && !prefix[1]!.endsWith('\\'))
    return new RegExp(`^${globSource(prefix[1]!.trimEnd(), chars, true)}(?:([ \\t]${chars.star}*))?$`, 'du')
  return new RegExp(`^${globSource(p, chars, true)}$`, 'du')
}

/**
 * A shell command against a Claude Code Bash rule, with the dangerous-argument guard
 * (`dangerous-args.ts`): no wildcard covers an argument that changes what the command does.
 */
export function commandVerdict(pattern: string, command: string): CommandVerdict {
  const cmd = command.trim()
  const m = commandRegExp(pattern, SHELL).exec(cmd)
  if (!m) {
    // would it have matched had a wildcard crossed a shell operator? then say so
    if (commandRegExp(pattern, ANY).test(cmd)) {
      const op = /[;&|<>$`\n\r]/.exec(cmd)?.[0] ?? ''
      return {
        matches: false,
        declined: `no wildcard covers a shell operator (here ${op === '\n' || op === '\r' ? 'a line break' : op}; never ; & | < > $, a backtick or a line break)`
      }
    }
    return { matches: false }
  }
  const covered = (m.indices ?? []).slice(1).filter((r): r is [number, number] => !!r)
  const danger = coveredDanger(cmd, covered)
  if (danger)
    return {
      matches: false,
      declined: `no wildcard covers ${dangerWhy(danger)}; a rule allows it only where it writes it out`
    }
  return { matches: true }
}

/** A shell command against a Claude Code Bash rule. */
function commandMatches(pattern: string, command: string): boolean {
  return commandVerdict(pattern, command).matches
}

/** A path made absolute (`/` separators, `.` segments dropped), or null when it cannot be (relative without a folder, or `..`). */
function absolutePath(path: string, cwd: string | null | undefined): string | null {
  let p = path.replace(/\\/g, '/')
  if (/^[A-Za-z]:\//.test(p)) p = `/${p}`
  if (!p.startsWith('/')) {
    if (!cwd) return null
    const base = absolutePath(cwd, null)
    if (base === null) return null
    p = `${base}/${p}`
  }
  if (hasDotDot(p)) return null
  return `/${p
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/')}`
}

/** A file path against a gitignore-style Read/Edit rule (also the risky list's path patterns). */
export function pathMatches(pattern: string, path: string, call: CallToMatch): boolean {
  if (hasDotDot(pattern)) return false
  const subject = absolutePath(path, call.cwd)
  if (subject === null) return false
  let base: string | null
  let rest: string
  if (pattern.startsWith('//')) [base, rest] = ['/', pattern.slice(2)]
  else if (pattern.startsWith('~/')) [base, rest] = [call.home ? absolutePath(call.home, null) : null, pattern.slice(2)]
  else if (pattern.startsWith('/')) [base, rest] = [call.cwd ? absolutePath(call.cwd, null) : null, pattern.slice(1)]
  else [base, rest] = [call.cwd ? absolutePath(call.cwd, null) : null, pattern.replace(/^\.\//, '')]
  if (base === null) return false
  const floating =
    !pattern.startsWith('/') && !pattern.startsWith('~/') && !pattern.startsWith('./') && !rest.replace(/\/$/, '').includes('/')
  const root = base === '/' ? '/' : `${base}/`
  if (!subject.startsWith(root)) return false
  const relative = subject.slice(root.length)
  const body = globSource(rest.replace(/\/$/, ''), PATH)
  return new RegExp(floating ? `^(?:[\\s\\S]*/)?${body}$` : `^${body}$`, 'u').test(relative)
}

/** A URL against a WebFetch rule: `domain:host`, `domain:*.host`, or a URL glob. */
function urlMatches(pattern: string, url: string): boolean {
  const domain = /^domain:(.+)$/u.exec(pattern)
  if (!domain) return new RegExp(`^${globSource(pattern, URL_CHARS)}$`, 'u').test(url)
  let host: string
  try {
    const u = new URL(url)
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return false
    host = u.hostname.toLowerCase()
  } catch {
    return false
  }
  const want = domain[1]!.trim().toLowerCase()
  if (want.startsWith('*.')) return host.endsWith(want.slice(1)) && host.length > want.length - 1
  return host === want
}

/** True when the input pattern matches the call's input. */
export function inputMatches(pattern: string, call: CallToMatch): boolean {
  if (pattern === '*') return true
  // arguments nobody could read match no pattern but "any input"
  if (unreadableInput(call.tool_name, call.tool_input)) return false
  const tc = readToolCall(call.tool_name, call.tool_input)
  switch (tc.kind) {
    case 'bash':
      return commandMatches(pattern, tc.command)
    case 'edit':
    case 'write':
    case 'path': {
      // Glob and Grep search a folder: their `pattern` is what they look for, not where
      const where =
        tc.tool === 'Glob' || tc.tool === 'Grep' ? (typeof call.tool_input.path === 'string' ? call.tool_input.path : '.') : tc.path
      return pathMatches(pattern, where, call)
    }
    case 'fetch':
      return tc.tool === 'WebFetch' ? urlMatches(pattern, tc.url) : globRegExp(pattern).test(tc.url)
    case 'mcp':
    case 'other': {
      const json = stableJson(tc.kind === 'mcp' ? tc.args : tc.args)
      if (jsonHasDotDot(json)) return false
      return new RegExp(`^${globSource(pattern, JSON_TEXT)}$`, 'u').test(json)
    }
  }
}

/**
 * MCP server sources the code being worked on configures (Claude Code: a repository's `.mcp.json`
 * is `project`, a folder's own settings `local`): whoever can write the repository, an agent
 * included, chooses what such a server's tools do, and can give one the name of a trusted server.
 */
export const WORKSPACE_MCP_SOURCES: ReadonlySet<string> = new Set(['project', 'local'])

/** The MCP server a tool name pattern names literally (`mcp__github__*` → `github`), or null (`mcp__*`, `*`). */
export function namedMcpServer(toolPattern: string): string | null {
  return /^mcp__([^*?\\]+?)__/.exec(toolPattern)?.[1] ?? null
}

/**
 * Why a rule does not allow a call for where it comes from, or null: a tool of a `project` or
 * `local` MCP server is allowed only by a rule that names that server (`mcp__<server>__...`),
 * never by `mcp__*`, `*` or another wildcard over server names.
 */
export function provenanceDeclined(rule: RuleSpec, call: CallToMatch): string | null {
  const server = call.provenance?.mcp_server
  if (!server || !WORKSPACE_MCP_SOURCES.has(server.source) || namedMcpServer(rule.tool_name) !== null) return null
  return `the tool is MCP server ${server.name}'s, configured by the ${server.source === 'project' ? "project's .mcp.json" : "folder's local settings"}: only a rule naming that server (mcp__${server.name}__...) allows its tools`
}

/** An "ask" rule's input pattern: `ask:subagent <type>` (every call of that subagent type waits for the operator). */
const ASK_SUBAGENT = /^ask:subagent ([A-Za-z0-9_.:@-]+|\*)$/u

/** True for an "ask" rule: it allows nothing, and keeps every other rule from the calls it names. */
export function isAskRule(rule: RuleSpec): boolean {
  return rule.input_pattern.startsWith('ask:')
}

/**
 * Why an "ask" rule keeps the call for the operator, or null when it does not hold for it:
 * `ask:subagent code-reviewer` holds for the agents and tools of the rule when the call comes from a
 * subagent of that type (`ask:subagent *`: from any subagent).
 */
export function askRuleHolds(rule: RuleSpec, call: CallToMatch): string | null {
  const m = ASK_SUBAGENT.exec(rule.input_pattern)
  if (!m || !globRegExp(rule.agent_pattern).test(call.agent) || !globRegExp(rule.tool_name).test(call.tool_name)) return null
  const p = call.provenance
  // a subagent's call carries its id; an agent type alone is the main thread of a session started with --agent
  if (!p?.agent_id) return null
  if (m[1] !== '*' && p.agent_type !== m[1]) return null
  return `every call from a ${p.agent_type ?? 'subagent of unknown type'} subagent asks you (rule ${ruleLabel(rule)})`
}

/**
 * The first rule of `rules` (in order) that allows the call, or null; none does where an "ask" rule
 * holds for it. The one answer of the DB's store and of the hook's mirror.
 */
export function firstAllowing<R extends RuleSpec>(rules: readonly R[], call: CallToMatch): R | null {
  if (rules.some((r) => isAskRule(r) && askRuleHolds(r, call))) return null
  return rules.find((r) => ruleMatches(r, call)) ?? null
}

/** True when the rule allows the call. */
export function ruleMatches(rule: RuleSpec, call: CallToMatch): boolean {
  if (isAskRule(rule)) return false
  if (!globRegExp(rule.agent_pattern).test(call.agent)) return false
  if (!globRegExp(rule.tool_name).test(call.tool_name)) return false
  if (provenanceDeclined(rule, call)) return false
  return inputMatches(rule.input_pattern, call)
}

/**
 * Why a rule for this agent and tool does not allow the call although its pattern reads as if it
 * would (a wildcard would cover a dangerous argument or a shell operator), or null.
 */
export function ruleDeclined(rule: RuleSpec, call: CallToMatch): string | null {
  if (!globRegExp(rule.agent_pattern).test(call.agent) || !globRegExp(rule.tool_name).test(call.tool_name)) return null
  const origin = provenanceDeclined(rule, call)
  if (origin) return inputMatches(rule.input_pattern, call) ? origin : null
  if (rule.input_pattern === '*' || unreadableInput(call.tool_name, call.tool_input)) return null
  const tc = readToolCall(call.tool_name, call.tool_input)
  return tc.kind === 'bash' ? (commandVerdict(rule.input_pattern, tc.command).declined ?? null) : null
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
  if (/^\{\s*\}$/.test(rule.input_pattern))
    return 'an input pattern for no arguments would allow calls whose arguments nobody read: write the arguments, or * for any'
  if (isAskRule(rule) && !ASK_SUBAGENT.test(rule.input_pattern))
    return 'an ask rule reads ask:subagent <type> (or ask:subagent * for every subagent)'
  if (rule.tool_name === '*' && rule.input_pattern === '*')
    return 'a rule for any tool with any input would approve everything: name a tool or an input pattern'
  if (PATH_TOOLS.has(rule.tool_name) && hasDotDot(rule.input_pattern))
    return 'a path pattern must not contain a .. segment (write the folder it means)'
  return null
}

/** A runner and one of the project's own scripts (`npm run lint`, `pnpm test`): the only prefix "always allow" offers. */
const SCRIPT_PREFIX = /^((?:npm|pnpm|yarn|bun) (?:run |run-script )?[A-Za-z0-9_.:@+-]+)(?:\s+(.*))?$/su
/** Runner words that are not a script name. */
const NOT_SCRIPTS =
  /^(?:npm|pnpm|yarn|bun) (?:exec|x|dlx|install|i|add|remove|uninstall|publish|link|config|set|create|init|update|upgrade|ci)$/u

/** The narrowest Bash rule for a command: itself, or its script prefix when it runs one of the project's scripts. */
function commandRule(command: string): string {
  const cmd = command.trim()
  if ([...SHELL_OPERATORS].some((c) => cmd.includes(c))) return globLiteral(cmd)
  const m = SCRIPT_PREFIX.exec(cmd)
  if (!m || NOT_SCRIPTS.test(m[1]!) || !m[2]) return globLiteral(cmd)
  // an argument no wildcard covers: only the exact command can allow it
  if (dangerousArgs(cmd).length) return globLiteral(cmd)
  return `${globLiteral(m[1]!)} *`
}

/** The narrowest path rule for one file: its absolute path from the root (`//...`), or `./...` when it cannot be made absolute. */
function pathRule(path: string, cwd: string | null | undefined): string {
  const abs = absolutePath(path, cwd)
  if (abs !== null) return `/${globLiteral(abs)}`
  return `./${globLiteral(path.replace(/^\.\//, ''))}`
}

/**
 * The rule "approve and always allow this" offers for a call (shown, and editable, before saving):
 * the narrowest one that allows this call. A command is allowed exactly (`find . -name x` never
 * becomes `find *`, which would allow `-delete`), except a project script's arguments; a file by its
 * own path; a fetch by its host; MCP and other tools by their exact arguments.
 */
export function proposeRule(call: CallToMatch): RuleSpec {
  const tc = readToolCall(call.tool_name, call.tool_input)
  let input: string
  switch (tc.kind) {
    case 'bash':
      input = commandRule(tc.command)
      break
    case 'edit':
    case 'write':
    case 'path': {
      const searches = tc.tool === 'Glob' || tc.tool === 'Grep'
      input = pathRule(searches ? (typeof call.tool_input.path === 'string' ? call.tool_input.path : '.') : tc.path, call.cwd)
      break
    }
    case 'fetch': {
      let host: string | null = null
      try {
        host = tc.tool === 'WebFetch' ? new URL(tc.url).hostname.toLowerCase() : null
      } catch {
        host = null
      }
      input = host ? `domain:${host}` : globLiteral(tc.url)
      break
    }
    case 'mcp':
    case 'other':
      input = globLiteral(stableJson(tc.args))
      break
  }
  return { agent_pattern: globLiteral(call.agent), tool_name: globLiteral(call.tool_name), input_pattern: input }
}
