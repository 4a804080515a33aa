/**
 * Cursor (`~/.cursor/hooks.json`, `{"version": 1, "hooks": {...}}`): `preToolUse`,
 * `beforeShellExecution` (`command`, `cwd`) and `beforeMCPExecution` (`tool_name`, `tool_input`
 * as a JSON text, `url` or `command` of the server), each with `conversation_id`,
 * `generation_id`, `workspace_roots`. Answer: `permission` allow / deny / ask with
 * `user_message` (to the person) and `agent_message` (to the model). Exit 2 denies; Muster's
 * entries are installed with `failClosed: true`, so a crash or a timeout denies too.
 * Install: `beforeShellExecution` and `beforeMCPExecution` by default.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { exitTwo, HookInputError, line, needText, optText, toolInputOf, type HarnessAdapter, type HarnessCall } from './types'

/** Cursor's hook events Muster answers. */
export const CURSOR_EVENTS = ['beforeShellExecution', 'beforeMCPExecution', 'preToolUse'] as const

const firstRoot = (o: Record<string, unknown>): string | null =>
  Array.isArray(o.workspace_roots) && typeof o.workspace_roots[0] === 'string' ? o.workspace_roots[0] : null

/** Cursor. */
export const cursor: HarnessAdapter = {
  id: Harness.cursor,
  name: 'cursor',
  label: 'Cursor',
  recognizes: (o) =>
    typeof o.hook_event_name === 'string' &&
    (CURSOR_EVENTS as readonly string[]).includes(o.hook_event_name) &&
    ('conversation_id' in o || 'generation_id' in o || 'cursor_version' in o || 'workspace_roots' in o),
  parse: (o): HarnessCall => {
    const event = needText(o, 'hook_event_name')
    if (!(CURSOR_EVENTS as readonly string[]).includes(event))
      throw new HookInputError(`unsupported Cursor hook '${event}' (approve-hook answers ${CURSOR_EVENTS.join(', ')})`)
    const base = {
      harness: Harness.cursor,
      event,
      session_id: optText(o, 'conversation_id'),
      cwd: optText(o, 'cwd') ?? firstRoot(o),
      tool_use_id: optText(o, 'tool_use_id') ?? optText(o, 'generation_id'),
      transcript_path: null,
      suggestions: null
    }
    if (event === 'beforeShellExecution') return { ...base, tool_name: 'Shell', tool_input: { command: needText(o, 'command') } }
    return { ...base, tool_name: needText(o, 'tool_name'), tool_input: toolInputOf(o.tool_input ?? null, 'tool_input', true) }
  },
  answer: (_call, verdict, reason) => ({
    stdout: line({ permission: verdict, user_message: reason, agent_message: reason }),
    exitCode: 0
  }),
  refuse: (reason) => exitTwo(reason),
  settings: { under: 'home', path: ['.cursor', 'hooks.json'] },
  gate: {
    events: CURSOR_EVENTS,
    defaultEvents: ['beforeShellExecution', 'beforeMCPExecution'],
    what: { beforeShellExecution: 'shell commands', beforeMCPExecution: 'MCP tool calls', preToolUse: 'every tool call' },
    entry: (o) => ({
      event: o.event,
      entry: { command: o.command, timeout: o.timeoutSec, failClosed: true, ...(o.matcher ? { matcher: o.matcher } : {}) }
    }),
    fileBase: { version: 1 }
  },
  faults: {
    'hub-unreachable': { outcome: 'blocked', how: 'Muster answers ask: Cursor asks you' },
    'build-missing': { outcome: 'blocked', how: '`failClosed: true`: a hook that cannot start denies' },
    'hook-crash': { outcome: 'blocked', how: '`failClosed: true`: a hook that crashes denies' },
    'hook-timeout': { outcome: 'blocked', how: '`failClosed: true`: a hook that times out denies' },
    untrusted: { outcome: 'n/a', how: 'Cursor runs the hooks in its hooks file' },
    'bad-input': { outcome: 'blocked', how: 'exit 2 with the reason; nothing recorded' }
  },
  trust: { kind: 'none', how: 'hooks in its hooks file run' },
  versions: { bin: 'cursor-agent', args: ['--version'], tested: 'none (contract tests on its documented payloads)' },
  noUsage: 'Cursor’s hooks carry no token counts, and it keeps no usage records Muster can read'
}
