/**
 * The flags of `muster session-hook` (the lifecycle hook), parsed without commander: the hook's
 * own entry starts on every prompt of every agent. Commander registers the same flags for `--help`.
 */

/** Options of one session hook run. */
export interface SessionHookOptions {
  agent?: string
  harness?: string
  event?: string
  hub?: string
  project?: string
  home?: string
  palace?: string
}

/** The flags, with their help lines. */
export const SESSION_HOOK_FLAGS: readonly { spec: string; key: keyof SessionHookOptions; help: string }[] = [
  { spec: '--agent <id>', key: 'agent', help: 'the agent whose session this is (required), e.g. mac-claude' },
  { spec: '--harness <name>', key: 'harness', help: 'claude, codex, gemini or copilot (default: read from the hook input)' },
  { spec: '--event <name>', key: 'event', help: 'the lifecycle event, for harnesses whose input does not name it (Copilot CLI)' },
  {
    spec: '--hub <name-or-url>',
    key: 'hub',
    help: 'a registered hub (default: --palace, else the hub registered first, else MemPalace’s palace)'
  },
  { spec: '--project <name>', key: 'project', help: 'the project (default: the registered project holding the session’s cwd)' }
]

const GLOBALS: Record<string, keyof SessionHookOptions> = { '--home': 'home', '--palace': 'palace' }

/** Parses `session-hook`'s command line (the words after `muster`, global options anywhere). */
export function parseSessionHookArgv(argv: readonly string[]): SessionHookOptions {
  const out: SessionHookOptions = {}
  const byName = new Map(SESSION_HOOK_FLAGS.map((f) => [f.spec.split(' ')[0]!, f.key]))
  let seen = false
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === 'session-hook' && !seen) {
      seen = true
      continue
    }
    if (word === '--json') continue
    const eq = word.indexOf('=')
    const name = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word
    const key = byName.get(name) ?? GLOBALS[name]
    if (!key) throw new Error(word.startsWith('-') ? `unknown option '${word}'` : `unexpected argument '${word}'`)
    const value = eq > 0 && name !== word ? word.slice(eq + 1) : argv[++i]
    if (value === undefined) throw new Error(`option '${name}' needs a value`)
    out[key] = value
  }
  return out
}
