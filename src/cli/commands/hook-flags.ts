/**
 * The flags of `muster approve-hook`, defined once: commander registers them for `--help` and the
 * slow path, and the hook's own entry (`hook-main.ts`, which skips commander to start fast)
 * parses them with `parseHookArgv`. Light on purpose: no imports.
 */

/** Options of one hook run (global `--home`/`--palace` included). */
export interface HookCliOptions {
  agent?: string
  hub?: string
  project?: string
  harness?: string
  event?: string
  timeoutMs?: number
  lockTimeoutMs?: number
  operatorKeys?: string
  gate?: string
  home?: string
  palace?: string
}

/** One flag: its commander spec, the option key, the help line, and whether it takes a number. */
export interface HookFlag {
  spec: string
  key: keyof HookCliOptions
  help: string
  int?: boolean
}

/** The hook's own flags (besides the global `--home`, `--palace`, `--json`). */
export const HOOK_FLAGS: readonly HookFlag[] = [
  { spec: '--agent <id>', key: 'agent', help: 'the agent whose tool call this is (required), e.g. mac-claude' },
  {
    spec: '--hub <name-or-url>',
    key: 'hub',
    help: 'a registered hub (default: --palace, else the hub registered first, else MemPalace’s palace)'
  },
  {
    spec: '--project <name>',
    key: 'project',
    help: 'the project of the request (default: the registered project holding the hook’s cwd, else its folder name)'
  },
  {
    spec: '--harness <name>',
    key: 'harness',
    help: 'claude-code, codex, gemini, copilot, cursor or opencode (default: read from the hook input as a whole)'
  },
  {
    spec: '--event <name>',
    key: 'event',
    help: 'the hook event, for harnesses whose input does not name it (Copilot CLI: permissionRequest or preToolUse)'
  },
  {
    spec: '--timeout-ms <ms>',
    key: 'timeoutMs',
    int: true,
    help: 'how long to wait for a decision, then deny as a timeout (default 540000: below Claude Code’s 600 s hook timeout; max 86400000)'
  },
  {
    spec: '--lock-timeout-ms <ms>',
    key: 'lockTimeoutMs',
    int: true,
    help: 'how long to wait for a locked hub before letting the harness ask (default 5000)'
  },
  {
    spec: '--operator-keys <ids>',
    key: 'operatorKeys',
    help: 'comma-separated operator key ids whose signed decisions count (default: the home’s own and trusted keys; install writes them)'
  },
  {
    spec: '--gate <file>',
    key: 'gate',
    help: 'an admin-owned gate’s file (root-owned; written by install --managed): its keys, presence policy and authenticators count, the home’s do not'
  }
]

/** Global options the hook reads (values) or ignores (`--json`). */
const GLOBAL_VALUES: Record<string, keyof HookCliOptions> = { '--home': 'home', '--palace': 'palace' }

/** Parses a non-negative integer flag value. */
export function hookInt(name: string, v: string): number {
  if (!/^\d+$/.test(v.trim())) throw new Error(`${name} must be a non-negative integer, got '${v}'`)
  return Number(v)
}

/** Parses `approve-hook`'s command line (the words after `muster`, global options anywhere). */
export function parseHookArgv(argv: readonly string[]): HookCliOptions {
  const out: HookCliOptions = {}
  const byName = new Map(HOOK_FLAGS.map((f) => [f.spec.split(' ')[0]!, f]))
  let seenCommand = false
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === 'approve-hook' && !seenCommand) {
      seenCommand = true
      continue
    }
    if (word === '--json') continue
    const eq = word.indexOf('=')
    const name = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word
    const flag = byName.get(name)
    const key = flag?.key ?? GLOBAL_VALUES[name]
    if (!key)
      throw new Error(word.startsWith('-') ? `unknown option '${word}' (see: muster approve-hook --help)` : `unexpected argument '${word}'`)
    const value = eq > 0 && name !== word ? word.slice(eq + 1) : argv[++i]
    if (value === undefined) throw new Error(`option '${name}' needs a value`)
    ;(out as Record<string, unknown>)[key] = flag?.int ? hookInt(name, value) : value
  }
  return out
}
