/**
 * The operator's presence (WebAuthn: a passkey, a security key, Touch ID / Windows Hello) in
 * approvals, as the hook, the service and the screen all read it:
 * - the policy of a home: `off`, `risky` (presence for the calls of the risky list, one tap for
 *   the rest) or `every-allow` (presence for every allow);
 * - the risky list: shell commands, paths and tools, each in a category the operator recognises
 *   (destructive shell, pushes, credential paths, network egress, the harnesses' own settings),
 *   visible and editable;
 * - the texts an assertion's challenge is the SHA-256 of: a decision binds exactly what was shown
 *   (the request, its harness, agent, tool, a hash of the full input) and the decision itself.
 * Pure (no Node, no zod): the hook process and the renderer load it.
 */
import { pathMatches, type CallToMatch } from './allow-rules'
import { readToolCall, stableJson, type ToolInput } from './tool-call'

/** The presence policies of a home. */
export const PRESENCE_POLICIES = ['off', 'risky', 'every-allow'] as const
/** One of them. */
export type PresencePolicy = (typeof PRESENCE_POLICIES)[number]

/** What a risky pattern is matched against: a shell command, a path the call touches, or the tool's name. */
export const RISK_KINDS = ['shell', 'path', 'tool'] as const
/** One of them. */
export type RiskKind = (typeof RISK_KINDS)[number]

/** Why a pattern is on the risky list. */
export const RISK_CATEGORIES = ['destructive', 'push', 'credentials', 'egress', 'harness-settings', 'custom'] as const
/** One of them. */
export type RiskCategory = (typeof RISK_CATEGORIES)[number]

/** How each category is named on screen and in the CLI. */
export const RISK_CATEGORY_LABEL: Record<RiskCategory, string> = {
  destructive: 'destructive shell command',
  push: 'push or publish',
  credentials: 'credential path',
  egress: 'network egress',
  'harness-settings': "a harness's own settings",
  custom: 'your own pattern'
}

/** One entry of the risky list. */
export interface RiskyPattern {
  kind: RiskKind
  /**
   * shell: a command and the words it must carry (`git push`, `rm -r`: `-r` matches any cluster of
   * short flags holding r, such as `-rf`), matched in every command of a line (`a && b | c`);
   * path: a gitignore-style path pattern (`~/.ssh/**`, `//etc/codex/**`, `**\/.env`);
   * tool: a tool name glob (`WebFetch`, `mcp__*`).
   */
  pattern: string
  category: RiskCategory
}

const shell = (category: RiskCategory, ...patterns: string[]): RiskyPattern[] =>
  patterns.map((pattern) => ({ kind: 'shell', pattern, category }))
const paths = (category: RiskCategory, ...patterns: string[]): RiskyPattern[] =>
  patterns.map((pattern) => ({ kind: 'path', pattern, category }))
const tools = (category: RiskCategory, ...patterns: string[]): RiskyPattern[] =>
  patterns.map((pattern) => ({ kind: 'tool', pattern, category }))

/** The risky list a home starts with (the operator edits it in Settings or with `muster presence risky`). */
export const DEFAULT_RISKY: readonly RiskyPattern[] = [
  ...shell(
    'destructive',
    'rm -r',
    'rm -R',
    'rm --recursive',
    'find -delete',
    'git reset --hard',
    'git clean -f',
    'git checkout --',
    'git branch -D',
    'git push --force',
    'git push -f',
    'dd',
    'mkfs*',
    'shred',
    'chmod -R',
    'chown -R',
    'sudo',
    'doas',
    'kill -9',
    'killall',
    'pkill'
  ),
  ...shell(
    'push',
    'git push',
    'npm publish',
    'pnpm publish',
    'yarn publish',
    'cargo publish',
    'docker push',
    'gh release',
    'gh pr merge',
    'twine upload'
  ),
  ...shell('egress', 'curl', 'wget', 'nc', 'ncat', 'socat', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'telnet'),
  ...tools('egress', 'WebFetch', 'WebSearch', 'web_fetch', 'google_web_search', 'mcp__*'),
  ...paths(
    'credentials',
    '~/.ssh/**',
    '~/.aws/**',
    '~/.gnupg/**',
    '~/.kube/**',
    '~/.config/gh/**',
    '~/.docker/config.json',
    '~/.netrc',
    '~/.npmrc',
    '~/.pypirc',
    '~/.git-credentials',
    '.env',
    '.env.*',
    '*.pem',
    '*.key',
    'id_rsa*',
    'id_ed25519*'
  ),
  ...paths(
    'harness-settings',
    '~/.claude/**',
    '.claude/**',
    '~/.codex/**',
    '.codex/**',
    '~/.gemini/**',
    '.gemini/**',
    '~/.cursor/**',
    '.cursor/**',
    '.github/hooks/**',
    '~/.config/opencode/**',
    '.opencode/**',
    '~/.muster/**',
    '~/.config/Muster/**',
    '//etc/claude-code/**',
    '//etc/codex/**',
    '//etc/muster/**'
  )
]

/** Longest risky pattern accepted. */
const MAX_RISKY_CHARS = 300

/** Why a risky pattern is unusable, or null when it is fine. */
export function riskyProblem(p: RiskyPattern): string | null {
  if (!(RISK_KINDS as readonly string[]).includes(p.kind)) return `kind must be one of ${RISK_KINDS.join(', ')}`
  if (!(RISK_CATEGORIES as readonly string[]).includes(p.category)) return `category must be one of ${RISK_CATEGORIES.join(', ')}`
  const t = p.pattern
  if (typeof t !== 'string' || t.trim() === '') return 'the pattern must not be empty'
  if (t !== t.trim()) return 'the pattern must not start or end with spaces'
  if (t.length > MAX_RISKY_CHARS) return `the pattern is longer than ${MAX_RISKY_CHARS} characters`
  if ([...t].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return 'the pattern contains control characters'
  if (p.kind === 'path' && /(^|\/)\.\.(\/|$)/.test(t)) return 'a path pattern must not contain a .. segment'
  return null
}

/** A glob of one word (`*` any run, `?` one character) as an anchored RegExp. */
function wordGlob(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\/]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${body}$`, 'su')
}

/** Words that run the command after them (`sudo rm`, `env A=1 rm`, `nohup rm`): looked through, and `sudo` itself counts. */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'command',
  'exec',
  'nohup',
  'time',
  'nice',
  'ionice',
  'timeout',
  'xargs',
  'builtin',
  'stdbuf'
])

/**
 * The commands of a shell line, each as its words: split at `; & | && || ( ) $( \``, line breaks,
 * quotes removed (a quoted word is one word), redirections kept as words of their own.
 */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = []
  let words: string[] = []
  let word = ''
  let inWord = false
  let quote: '"' | "'" | null = null
  const endWord = (): void => {
    if (inWord) words.push(word)
    word = ''
    inWord = false
  }
  const endCommand = (): void => {
    endWord()
    if (words.length) commands.push(words)
    words = []
  }
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = null
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i]
      else word += c
      continue
    }
    if (c === '"' || c === "'") {
      quote = c
      inWord = true
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i]
      inWord = true
    } else if (/[;&|()`\n\r]/.test(c) || (c === '$' && line[i + 1] === '(')) endCommand()
    else if (c === '<' || c === '>') {
      endWord()
      // `2>file`, `>>file`: the target is the next word
      while (line[i + 1] === '>' || line[i + 1] === '&') i++
    } else if (c === ' ' || c === '\t') endWord()
    else {
      word += c
      inWord = true
    }
  }
  endCommand()
  return commands
}

/** The command word of a command (wrappers and `VAR=value` looked through), its arguments, and whether a wrapper was sudo. */
function commandOf(words: string[]): { name: string; args: string[]; wrappers: string[] } | null {
  let i = 0
  const wrappers: string[] = []
  while (i < words.length) {
    const w = words[i]!
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++
    else if (WRAPPERS.has(w.replace(/^.*\//, ''))) {
      wrappers.push(w.replace(/^.*\//, ''))
      i++
      // a wrapper's own options (`sudo -u x`, `timeout 5`): skip words until one looks like a command
      while (i < words.length && (/^-/.test(words[i]!) || /^\d+[smhd]?$/.test(words[i]!))) i++
    } else break
  }
  const name = words[i]?.replace(/^.*\//, '')
  return name === undefined
    ? wrappers.length
      ? { name: wrappers[wrappers.length - 1]!, args: [], wrappers }
      : null
    : { name, args: words.slice(i + 1), wrappers }
}

/** True when an argument carries the pattern word: a short-flag cluster holding its letters, `--long[=...]`, or the word (a glob). */
function argCarries(arg: string, want: string): boolean {
  if (/^-[A-Za-z0-9]+$/.test(want) && /^-[A-Za-z0-9]+$/.test(arg)) return [...want.slice(1)].every((l) => arg.includes(l))
  if (/^--[^=]+$/.test(want)) return arg === want || arg.startsWith(`${want}=`)
  return wordGlob(want).test(arg)
}

/** True when a shell pattern (`command word...`) matches one command of a line. */
function shellPatternMatches(pattern: string, line: string): boolean {
  const [want, ...needs] = pattern.split(/\s+/)
  if (!want) return false
  const re = wordGlob(want)
  return shellCommands(line).some((words) => {
    const c = commandOf(words)
    if (!c) return false
    const named = re.test(c.name) || c.wrappers.some((w) => re.test(w))
    if (!named) return false
    // a wrapper matched by name (`sudo`) needs nothing more; otherwise every word must be there
    if (!re.test(c.name)) return needs.length === 0
    return needs.every((n) => c.args.some((a) => argCarries(a, n)))
  })
}

/** The paths a call touches, as far as they can be read: its file, a patch's files, path-like words of a command or arguments. */
export function pathsOf(call: CallToMatch): string[] {
  const tc = readToolCall(call.tool_name, call.tool_input)
  const out = new Set<string>()
  const pathish = (w: string): boolean => /^(~|\.{1,2}(\/|$)|\/)/.test(w) || w.includes('/') || /^\.[A-Za-z]/.test(w)
  switch (tc.kind) {
    case 'edit':
    case 'write':
    case 'path':
      out.add(tc.path)
      break
    case 'bash':
      // every word but options: a bare name is a file in the working folder (`> settings.json`)
      for (const words of shellCommands(tc.command))
        for (const w of words) {
          // `--output=~/x`, `VAR=~/x`: the value
          const v = w.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w) ? (/=(.+)$/s.exec(w)?.[1] ?? '') : w
          if (v !== '') out.add(v)
        }
      break
    default: {
      // apply_patch and any other tool: file headers of a patch, and every string value that reads as a path
      const visit = (v: unknown): void => {
        if (typeof v === 'string') {
          for (const m of v.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gmu)) out.add(m[1]!.trim())
          for (const m of v.matchAll(/^(?:\+\+\+|---) (?:[ab]\/)?(\S+)/gmu)) if (m[1] !== '/dev/null') out.add(m[1]!)
          if (v.length < 4096 && !/\s/.test(v) && pathish(v)) out.add(v)
        } else if (Array.isArray(v)) v.forEach(visit)
        else if (v && typeof v === 'object') Object.values(v).forEach(visit)
      }
      visit(tc.kind === 'fetch' ? {} : call.tool_input)
    }
  }
  return [...out]
}

/** A path as written (`~/x`, `./x`, `x`), made comparable: `~` expanded with the operator's home. */
function expandHome(path: string, home: string | null | undefined): string {
  if (!home) return path
  if (path === '~') return home
  return path.startsWith('~/') ? `${home.replace(/\/$/, '')}/${path.slice(2)}` : path
}

/**
 * A path made absolute against the call's folder (or the root when there is none: `x/.env` still
 * names a `.env`), with `.` and `..` segments resolved (`../../.ssh/id_rsa` is the key it reaches).
 */
function absoluteFrom(path: string, cwd: string | null | undefined): string {
  const p = path.replace(/\\/g, '/')
  const full = p.startsWith('/') ? p : /^[A-Za-z]:\//.test(p) ? `/${p}` : `${(cwd ?? '').replace(/\\/g, '/')}/${p}`
  const out: string[] = []
  for (const seg of full.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') out.pop()
    else out.push(seg)
  }
  return `/${out.join('/')}`
}

/** The first entry of `list` that makes the call risky, or null. */
export function riskOf(call: CallToMatch, list: readonly RiskyPattern[]): RiskyPattern | null {
  const tc = readToolCall(call.tool_name, call.tool_input)
  let paths: string[] | null = null
  for (const p of list) {
    switch (p.kind) {
      case 'tool':
        if (wordGlob(p.pattern).test(call.tool_name)) return p
        break
      case 'shell':
        if (tc.kind === 'bash' && shellPatternMatches(p.pattern, tc.command)) return p
        break
      case 'path': {
        paths ??= pathsOf(call).map((x) => absoluteFrom(expandHome(x, call.home), call.cwd))
        // `~/x` from the home folder, `//x` from the root; anything else matches in any folder
        const pattern = p.pattern.startsWith('~/') || p.pattern.startsWith('//') ? p.pattern : `//**/${p.pattern.replace(/^\.\//, '')}`
        // the folder itself counts too (`rm -rf ~/.claude`, `cd ~/.ssh`)
        if (paths.some((x) => pathMatches(pattern, x, { ...call, cwd: null }) || pathMatches(pattern, `${x}/-`, { ...call, cwd: null })))
          return p
        break
      }
    }
  }
  return null
}

/** True when a call needs the operator's presence under a policy (every allow, or a risky call). */
export function presenceNeeded(policy: PresencePolicy, call: CallToMatch, risky: readonly RiskyPattern[]): boolean {
  if (policy === 'every-allow') return true
  if (policy === 'risky') return riskOf(call, risky) !== null
  return false
}

/** What a decision's assertion binds: the request as shown and the decision. */
export interface DecisionBinding {
  correlation_id: string
  /** The request's event id (`evt_...`). */
  request_id: string
  harness: string
  agent: string
  tool_name: string
  /** SHA-256 (hex) of the full tool input as `stableJson` writes it. */
  input_sha256: string
  decision: 'allow' | 'deny'
  always: boolean
}

/** The text a decision's challenge is the SHA-256 of. */
export function decisionChallengeText(b: DecisionBinding): string {
  return JSON.stringify([
    'muster.presence.decision/1',
    b.correlation_id,
    b.request_id,
    b.harness,
    b.agent,
    b.tool_name,
    b.input_sha256,
    b.decision,
    b.always
  ])
}

/** The text hashed for a tool input's `input_sha256` (keys sorted at every level). */
export function inputHashText(input: ToolInput): string {
  return stableJson(input)
}

/**
 * The text a change of the home's trust is approved over: what changes (`op` and its fields) and
 * the ledger head it follows (a change cannot be replayed at another place in the ledger).
 */
export function trustChangeText(op: string, fields: Record<string, unknown>, head: string): string {
  return JSON.stringify(['muster.presence.change/1', op, stableJson(fields), head])
}
