/**
 * Codex (`~/.codex/hooks.json`): the Claude Code shape, on Codex's terms.
 * - `PermissionRequest` (interactive sessions, where Codex would ask): behavior allow / deny;
 *   printing nothing lets Codex ask. Codex refuses `updatedPermissions` (it fails the hook
 *   closed), so "always allow" is Muster's allowlist rule only.
 * - `PreToolUse` is a deny-only gate (for `codex exec`, which never asks): Codex accepts only
 *   `permissionDecision: "deny"` with a non-empty reason; an allow is "Hook failed". So an allow
 *   (or no decision) prints nothing and Codex goes on; a deny stops the call.
 * Exit 2 with a reason on stderr blocks in both.
 * Install: `--mode interactive` (PermissionRequest, the default), `exec` (PreToolUse) or `both`.
 * Codex runs a hook only once the user trusted it (`/hooks` in the TUI, or "trust all" at its
 * "Hooks need review" prompt); `codex exec` skips an untrusted hook silently. Codex 0.171 keeps the
 * trust in `config.toml` (`$CODEX_HOME`, default `~/.codex`): `[hooks.state."<hooks.json>:<event in
 * snake_case>:<entry index>:<hook index>"]` with `trusted_hash = "sha256:<hex>"` (and `enabled =
 * false` for one switched off), the hash over the hook's normalised identity (its event, matcher and
 * the one command hook with Codex's defaults: timeout 600, async false) as compact JSON with sorted
 * keys (codex-rs/hooks/src/engine/discovery.rs `command_hook_hash`, config/src/fingerprint.rs
 * `version_for_toml`). The command names Muster's gate launcher, so moving or upgrading Muster never
 * changes it and the trust survives.
 * Lifecycle: SessionStart, UserPromptSubmit, Stop, SessionEnd (0.171.0 sends it when `codex exec` ends).
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { TOKEN_KINDS, tokenCount, zeroTokens, type TokenCounts } from '../../../shared/contract/tokens'
import { obj, rootFrom, str, type RecordUsage, type UsageReader } from './usage-reading'
import {
  lifecycleMessage,
  looksLikeCodex,
  matcherGroup,
  parseToolEvent,
  permissionRequestAnswer,
  preToolUseAnswer,
  TOOL_EVENTS
} from './claude-code'
import { exitTwo, type HarnessAdapter, type InstalledEntry, type TrustState } from './types'

/** Codex's own name of a hook event in its trust keys: `PreToolUse` → `pre_tool_use`. */
export const codexEventLabel = (event: string): string => event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()

/** JSON with every object's keys sorted, compact (serde_json's canonical form Codex hashes). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(v)
}

/** The events whose matcher Codex keeps (for the others it drops it, also from the hash). */
const MATCHER_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse'])

/** The hash Codex gives an installed command hook (`sha256:<hex>`), as it compares it with `trusted_hash`. */
export function codexHookHash(h: InstalledEntry, sha256: (text: string) => string): string {
  const group = h.entry
  const hook = ((group.hooks as Record<string, unknown>[] | undefined) ?? [])[h.handler] ?? {}
  const timeout = typeof hook.timeout === 'number' ? Math.max(1, hook.timeout) : 600
  const identity = {
    event_name: codexEventLabel(h.event),
    matcher: MATCHER_EVENTS.has(h.event) && typeof group.matcher === 'string' ? group.matcher : undefined,
    hooks: [{ type: 'command', command: hook.command, timeout, async: hook.async === true, statusMessage: hook.statusMessage }]
  }
  return `sha256:${sha256(canonical(identity))}`
}

/** Codex's trust state of an installed hook, from its parsed `config.toml`. */
function codexTrust(h: InstalledEntry, records: Record<string, unknown>, sha256: (text: string) => string): TrustState {
  const hooks = records.hooks as { state?: Record<string, { trusted_hash?: unknown; enabled?: unknown }> } | undefined
  const state = hooks?.state?.[`${h.file}:${codexEventLabel(h.event)}:${h.group}:${h.handler}`]
  if (state?.enabled === false) return 'disabled'
  if (typeof state?.trusted_hash !== 'string') return 'untrusted'
  return state.trusted_hash === codexHookHash(h, sha256) ? 'trusted' : 'modified'
}

/**
 * Codex's usage: its session rollouts (`<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-*.jsonl`, and
 * `archived_sessions/`), one JSON record per line. `session_meta` names the session and its `cwd`,
 * `turn_context` the model of the turn, and each `event_msg` of type `token_count` the session's
 * running total (`info.total_token_usage`): a record adds what the total grew by since the last
 * one, for the model of the turn, so a total repeated or written again adds nothing. OpenAI counts
 * cached and cache-written prompt tokens inside `input_tokens`, and reasoning inside
 * `output_tokens`: input here is what was read fresh.
 */
/** What Codex's reader carries between records: the turn's model and the last running total. */
interface CodexUsageState {
  model: string | null
  total: TokenCounts | null
}

/** A `total_token_usage` in Muster's kinds. */
function countsOf(u: Record<string, unknown>): TokenCounts {
  const input = tokenCount(u.input_tokens)
  const cached = tokenCount(u.cached_input_tokens)
  const written = tokenCount(u.cache_write_input_tokens)
  return {
    input: Math.max(0, input - cached - written),
    output: tokenCount(u.output_tokens),
    cache_write: written,
    cache_read: cached
  }
}

/** `sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl` or `archived_sessions/rollout-…`: the session is the UUID at the end. */
const FILE_RE =
  /^(?:sessions\/\d{4}\/\d{2}\/\d{2}|archived_sessions)\/rollout-[0-9T:-]+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i

/** Codex rollouts. */
export const codexUsage: UsageReader<CodexUsageState> = {
  harness: Harness.codex,
  roots: (env) => rootFrom(env, 'CODEX_HOME', '.codex'),
  recordFile: (rel) => {
    const m = FILE_RE.exec(rel)
    return m ? { session_id: m[1]!.toLowerCase() } : null
  },
  prune: (dir) => {
    const parts = dir.split('/')
    return (parts[0] !== 'sessions' && parts[0] !== 'archived_sessions') || parts.length > 4
  },
  wanted: (line) => line.includes('"token_count"') || line.includes('"turn_context"') || line.includes('"session_meta"'),
  start: () => ({ model: null, total: null }),
  read(r, state): RecordUsage {
    const p = obj(r.payload)
    if (!p) return { usage: [] }
    if (r.type === 'session_meta') return { usage: [], facts: { session_id: str(p.id) ?? str(p.session_id), cwd: str(p.cwd) } }
    if (r.type === 'turn_context') {
      state.model = str(p.model) ?? state.model
      return { usage: [], facts: { cwd: str(p.cwd) } }
    }
    if (r.type !== 'event_msg' || p.type !== 'token_count') return { usage: [] }
    const total = obj(obj(p.info)?.total_token_usage)
    if (!total) return { usage: [] }
    const now = countsOf(total)
    const before = state.total
    // a total below the last one is a new count (a resumed or forked thread): all of it is new
    const restarted = before !== null && TOKEN_KINDS.some((k) => now[k] < before[k])
    const tokens = zeroTokens()
    for (const k of TOKEN_KINDS) tokens[k] = before && !restarted ? now[k] - before[k] : now[k]
    state.total = now
    return { usage: [{ at: str(r.timestamp) ?? null, model: state.model ?? 'unknown', tokens }] }
  }
}

/** Codex. */
export const codex: HarnessAdapter = {
  id: Harness.codex,
  name: 'codex',
  label: 'Codex',
  recognizes: (o) =>
    typeof o.hook_event_name === 'string' && (TOOL_EVENTS as readonly string[]).includes(o.hook_event_name) && looksLikeCodex(o),
  parse: (o) => parseToolEvent(o, Harness.codex),
  answer: (call, verdict, reason) => {
    if (call.event === 'PermissionRequest') return permissionRequestAnswer(verdict, reason)
    return verdict === 'deny' ? preToolUseAnswer('deny', reason.trim() || 'denied in Muster') : { stdout: '', exitCode: 0 }
  },
  refuse: (reason) => exitTwo(reason),
  // `codex exec` never asks: its deny-only PreToolUse gate must deny, or the call runs
  noHub: (event) => (event === 'PreToolUse' ? 'deny' : 'ask'),
  settings: { under: 'home', path: ['.codex', 'hooks.json'] },
  gate: {
    events: TOOL_EVENTS,
    defaultEvents: ['PermissionRequest'],
    modes: { interactive: ['PermissionRequest'], exec: ['PreToolUse'], both: ['PermissionRequest', 'PreToolUse'] },
    what: {
      PermissionRequest: 'interactive sessions: the calls Codex would ask you about; allow or deny',
      PreToolUse: '`codex exec`: every call waits for you; deny stops it, allow (or no answer) lets Codex go on (a deny-only gate)'
    },
    exitTwoOnFailure: true,
    entry: (o) => matcherGroup(o.event, o.matcher, { type: 'command', command: o.command, timeout: o.timeoutSec }),
    notes: ({ changedEvents, action }) => [
      action === 'unchanged'
        ? 'unchanged: Codex keeps trusting it'
        : changedEvents.length
          ? `Codex asks you to trust the ${changedEvents.join(' and ')} hook once (its command is new or changed): review it with /hooks in the Codex TUI; until then \`codex exec\` runs every command ungated (\`muster gates\` shows it)`
          : 'the command line is unchanged; Codex asks again only if the entry changed otherwise (timeout, matcher)'
    ]
  },
  lifecycle: {
    // SessionEnd (reason "other") ends `codex exec` after its Stop (0.171.0, captured:
    // test/fixtures/harness-payloads/codex); without it an exec run showed "waiting" for a day
    events: { SessionStart: 'waiting', UserPromptSubmit: 'working', Stop: 'waiting', SessionEnd: 'done' },
    recognizes: (o) => typeof o.hook_event_name === 'string' && ('turn_id' in o || looksLikeCodex(o)),
    message: lifecycleMessage,
    note: 'Codex asks you to trust new or changed hooks once (/hooks)',
    // Interrupt (0.171.0 ships its schema: no reason, unlike Claude Code's): the session stopped, its waits withdrawn
    receipts: { calls: { PostToolUse: () => 'ran' }, ends: { Interrupt: 'interrupted' } }
  },
  faults: {
    'hub-unreachable': {
      outcome: 'blocked',
      how: 'interactive: Muster answers nothing and Codex asks you; `codex exec`: denied with the reason and the fix'
    },
    'build-missing': {
      outcome: 'blocked',
      how: 'the gate launcher denies with the reason; a launcher that cannot start: `|| exit 2` blocks'
    },
    'hook-crash': { outcome: 'blocked', how: 'the gate launcher denies with the reason; a hook killed outright: `|| exit 2` blocks' },
    'hook-timeout': { outcome: 'blocked', how: 'Muster denies as a timeout before Codex’s own hook timeout' },
    untrusted: {
      outcome: 'runs',
      how: 'Codex offers no way to block it: `codex exec` skips a hook nobody trusted, silently (`muster gates` and the needs-you queue say so until you trust it in the TUI)'
    },
    'bad-input': { outcome: 'blocked', how: 'exit 2 with the reason; nothing recorded' }
  },

  trust: {
    kind: 'review',
    how: 'a new or changed hook runs only once trusted with /hooks in the Codex TUI; `codex exec` skips it silently until then',
    store: { under: 'home', path: ['.codex', 'config.toml'], envDir: 'CODEX_HOME' },
    check: codexTrust
  },
  versions: { bin: 'codex', args: ['--version'], tested: '0.171.0' },
  usage: codexUsage
}
