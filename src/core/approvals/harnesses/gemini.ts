/**
 * Gemini CLI (`~/.gemini/settings.json`, hook `BeforeTool`; Qwen Code follows it). Input: the
 * base fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`) plus
 * `tool_name`, `tool_input`. Output: top-level `decision` allow / deny / ask with `reason` (sent
 * to the model on deny). Exit 2 blocks the tool with stderr as the reason; any other failure is
 * only a warning, so Muster never exits 1 on a Gemini payload.
 * Install: `BeforeTool` for the tools Gemini itself confirms (timeout in milliseconds).
 * Lifecycle: SessionStart, BeforeAgent (working), AfterAgent (waiting), Notification, SessionEnd.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { tokenCount } from '../../../shared/contract/tokens'
import { grownBy, homeOf, joinPath, obj, SESSION_ID, str, type RecordUsage, type SeenMessages, type UsageReader } from './usage-reading'
import { lifecycleMessage, matcherGroup } from './claude-code'
import { exitTwo, HookInputError, line, needText, optText, toolInputOf, type HarnessAdapter } from './types'

/** Gemini CLI's tools that it confirms by default (shell, writes, edits, fetches, MCP tools): never read_file, glob, grep... */
export const GEMINI_MATCHER = 'run_shell_command|write_file|replace|web_fetch|mcp_.*'

/**
 * Gemini CLI's usage: its saved chats (`<GEMINI_CLI_HOME or ~>/.gemini/tmp/<project>/chats/
 * session-*.jsonl`, a subagent's in `chats/<parent session>/`), one JSON record per line: the
 * first names the `sessionId`; a `gemini` message carries `tokens` (input, output, cached,
 * thoughts, tool, total) and its `model`, and is written again under the same `id` when its tool
 * calls ran, so each message counts once. Gemini counts cached tokens inside `input`; thoughts are
 * billed as output and tool-use prompts as input, so the four kinds add up to `total`. Lines that
 * edit the chat (`$set`, `$rewind`) spend nothing.
 */
/** What Gemini CLI's reader carries between records. */
interface GeminiUsageState {
  seen: SeenMessages
}

/** `<project>/chats/session-<time>-<short id>.jsonl` (the id is read from the file), or a subagent's `<project>/chats/<session>/<agent>.jsonl`. */
const MAIN_RE = /^[^/]+\/chats\/session-[^/]+\.jsonl$/
const SUB_RE = new RegExp(`^[^/]+/chats/(${SESSION_ID})/[^/]+\\.jsonl$`)

/** Gemini CLI chats. */
export const geminiUsage: UsageReader<GeminiUsageState> = {
  harness: Harness.gemini,
  roots: (env) => {
    const base = env.GEMINI_CLI_HOME || homeOf(env)
    return base ? [joinPath(base, '.gemini', 'tmp')] : []
  },
  recordFile: (rel) => {
    const sub = SUB_RE.exec(rel)
    if (sub) return { session_id: sub[1]! }
    // a main chat's name holds only the first part of its id: the whole id is in its first record
    return MAIN_RE.test(rel) ? { session_id: null } : null
  },
  // <project>/chats and a subagent folder inside it
  prune: (dir) => {
    const parts = dir.split('/')
    return parts.length > 3 || (parts.length >= 2 && parts[1] !== 'chats')
  },
  wanted: (line) => line.includes('"tokens"') || line.includes('"sessionId"'),
  start: () => ({ seen: [] }),
  read(r, state): RecordUsage {
    const facts = { session_id: str(r.sessionId) }
    const t = obj(r.tokens)
    if (r.type !== 'gemini' || !t) return { usage: [], facts }
    const cached = tokenCount(t.cached)
    const counts = {
      input: Math.max(0, tokenCount(t.input) - cached) + tokenCount(t.tool),
      output: tokenCount(t.output) + tokenCount(t.thoughts),
      cache_write: 0,
      cache_read: cached
    }
    const id = str(r.id)
    const tokens = id ? grownBy(state.seen, id, counts) : counts
    return { usage: [{ at: str(r.timestamp) ?? null, model: str(r.model) ?? 'unknown', tokens }], facts }
  }
}

/** Gemini CLI. */
export const gemini: HarnessAdapter = {
  id: Harness.gemini,
  name: 'gemini',
  aliases: ['qwen-code', 'qwen'],
  label: 'Gemini CLI',
  recognizes: (o) => o.hook_event_name === 'BeforeTool',
  parse: (o) => {
    if (o.hook_event_name !== 'BeforeTool')
      throw new HookInputError(`unsupported Gemini CLI hook '${String(o.hook_event_name)}' (approve-hook answers BeforeTool)`)
    return {
      harness: Harness.gemini,
      event: 'BeforeTool',
      tool_name: needText(o, 'tool_name'),
      tool_input: toolInputOf(o.tool_input ?? null, 'tool_input'),
      session_id: optText(o, 'session_id'),
      cwd: optText(o, 'cwd'),
      tool_use_id: null,
      transcript_path: optText(o, 'transcript_path'),
      suggestions: null
    }
  },
  answer: (_call, verdict, reason) => ({ stdout: line({ decision: verdict, reason }), exitCode: 0 }),
  refuse: (reason) => exitTwo(reason),
  // an `ask` in `gemini -p` waits for nobody, for ever: deny with the reason instead
  noHub: () => 'deny',
  settings: { under: 'home', path: ['.gemini', 'settings.json'] },
  gate: {
    events: ['BeforeTool'],
    defaultEvents: ['BeforeTool'],
    what: { BeforeTool: 'shell commands, writes, edits, fetches and MCP tools' },
    matcher: () => GEMINI_MATCHER,
    exitTwoOnFailure: true,
    entry: (o) => matcherGroup(o.event, o.matcher, { type: 'command', name: 'muster', command: o.command, timeout: o.timeoutSec * 1000 })
  },
  lifecycle: {
    events: { SessionStart: 'waiting', BeforeAgent: 'working', AfterAgent: 'waiting', Notification: 'waiting', SessionEnd: 'done' },
    recognizes: (o) =>
      o.hook_event_name === 'BeforeAgent' ||
      o.hook_event_name === 'AfterAgent' ||
      (typeof o.hook_event_name === 'string' && typeof o.transcript_path === 'string' && /[\\/]\.gemini[\\/]/.test(o.transcript_path)),
    message: lifecycleMessage
  },
  faults: {
    'hub-unreachable': {
      outcome: 'blocked',
      how: 'denied with the reason and the fix (an `ask` would hang `gemini -p`, where nobody answers)'
    },
    'build-missing': {
      outcome: 'blocked',
      how: 'the gate launcher answers exit 2 with the reason; a launcher that cannot start: `|| exit 2`'
    },
    'hook-crash': { outcome: 'blocked', how: 'the gate launcher answers exit 2 with the reason; a hook killed outright: `|| exit 2`' },
    'hook-timeout': { outcome: 'blocked', how: 'Muster denies as a timeout before Gemini’s own hook timeout' },
    untrusted: { outcome: 'n/a', how: 'Gemini runs the hooks of the user settings (no trust step for them)' },
    'bad-input': { outcome: 'blocked', how: 'exit 2 with the reason; nothing recorded' }
  },

  trust: { kind: 'none', how: 'hooks in the user settings run; a project’s own hooks need the folder trusted' },
  versions: { bin: 'gemini', args: ['--version'], tested: '0.61.0' },
  usage: geminiUsage
}
