/**
 * GitHub Copilot CLI (hooks files `{"version": 1, "hooks": {...}}`, command hooks with `bash` and
 * `timeoutSec`). The camelCase events carry no event name, so the installed command names it
 * (`--event permissionRequest|preToolUse`). Input: `sessionId`, `timestamp` (ms), `cwd`,
 * `toolName`, `toolArgs` (a JSON text or an object).
 * - `permissionRequest` (before Copilot's own rules and prompt): top-level `behavior` allow /
 *   deny with `message`; `{}` falls through to Copilot's own flow; exit 2 denies.
 * - `preToolUse`: top-level `permissionDecision` allow / deny / ask with `permissionDecisionReason`.
 * A failed or timed-out hook is skipped by Copilot (it never blocks), so Muster answers a deny in
 * Copilot's own shape for a payload it cannot use, and installs `timeoutSec` above its own wait.
 * Install: `permissionRequest` (or `preToolUse`), flat `{type, bash, timeoutSec}` entries in a
 * `{"version": 1}` hooks file (`.github/hooks/muster.json` of the current folder).
 * Lifecycle: sessionStart, userPromptSubmitted, agentStop, sessionEnd (`sessionId`).
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { HookInputError, line, needText, optText, textOf, toolInputOf, type HarnessAdapter, type HookReply } from './types'

/** Copilot's hook events Muster answers. */
export const COPILOT_EVENTS = ['permissionRequest', 'preToolUse'] as const

const deny = (event: string | undefined, reason: string): HookReply =>
  event === 'preToolUse'
    ? { stdout: line({ permissionDecision: 'deny', permissionDecisionReason: reason }), exitCode: 0 }
    : { stdout: line({ behavior: 'deny', message: reason }), exitCode: 2, stderr: reason }

/** Copilot CLI. */
export const copilot: HarnessAdapter = {
  id: Harness.copilot,
  name: 'copilot',
  label: 'Copilot CLI',
  recognizes: (o) => typeof o.toolName === 'string' && 'toolArgs' in o && !('hook_event_name' in o),
  parse: (o, event) => {
    const ev = event ?? 'permissionRequest'
    if (!(COPILOT_EVENTS as readonly string[]).includes(ev))
      throw new HookInputError(`unsupported Copilot CLI hook '${ev}' (approve-hook answers ${COPILOT_EVENTS.join(' and ')})`)
    return {
      harness: Harness.copilot,
      event: ev,
      tool_name: needText(o, 'toolName'),
      tool_input: toolInputOf(o.toolArgs ?? null, 'toolArgs', true),
      session_id: optText(o, 'sessionId'),
      cwd: optText(o, 'cwd'),
      tool_use_id: optText(o, 'toolCallId'),
      transcript_path: null,
      suggestions: null
    }
  },
  answer: (call, verdict, reason) => {
    if (call.event === 'preToolUse') return { stdout: line({ permissionDecision: verdict, permissionDecisionReason: reason }), exitCode: 0 }
    if (verdict === 'ask') return { stdout: line({}), exitCode: 0 }
    return verdict === 'allow' ? { stdout: line({ behavior: 'allow' }), exitCode: 0 } : deny(call.event, reason)
  },
  refuse: (reason, event) => deny(event, reason),
  settings: { under: 'cwd', path: ['.github', 'hooks', 'muster.json'] },
  gate: {
    events: COPILOT_EVENTS,
    defaultEvents: ['permissionRequest'],
    what: {
      permissionRequest: 'every call Copilot checks permissions for (not reads), before its own rules',
      preToolUse: 'every tool call'
    },
    entry: (o) => ({ event: o.event, entry: { type: 'command', bash: o.command, timeoutSec: o.timeoutSec } }),
    fileBase: { version: 1 },
    eventInCommand: true
  },
  lifecycle: {
    events: { sessionStart: 'waiting', userPromptSubmitted: 'working', agentStop: 'waiting', sessionEnd: 'done' },
    recognizes: (o) => typeof o.sessionId === 'string' && !('hook_event_name' in o),
    message: (event, o) => {
      if (event === 'notification') return textOf(o.message)
      if (event === 'sessionEnd') return textOf(o.reason)
      if (event === 'agentStop') return textOf(o.last_assistant_message) ?? textOf(o.prompt_response)
      if (event === 'sessionStart') return textOf(o.initialPrompt)
      return null
    }
  },
  faults: {
    'hub-unreachable': { outcome: 'partly', how: 'permissionRequest: Muster answers nothing and Copilot asks you' },
    'build-missing': { outcome: 'runs', how: 'a failed hook is skipped (documented)' },
    'hook-crash': { outcome: 'runs', how: 'a failed hook is skipped (documented)' },
    'hook-timeout': { outcome: 'blocked', how: 'Muster denies as a timeout before `timeoutSec`' },
    untrusted: { outcome: 'n/a', how: 'Copilot runs the hooks of a folder it was told to trust' },
    'bad-input': { outcome: 'blocked', how: 'Copilot’s own deny with the reason; nothing recorded' }
  },
  trust: { kind: 'none', how: 'hooks files of a trusted folder run' },
  versions: { bin: 'copilot', args: ['--version'], tested: '1.0.102' }
}
