/**
 * GitHub Copilot CLI (hooks files `{"version": 1, "hooks": {...}}`, command hooks with `bash` and
 * `timeoutSec`). Payloads, as the real CLI sends them (1.0.102, `test/fixtures/harness-payloads/copilot`):
 * - `permissionRequest`: `hookName`, `sessionId`, `timestamp` (ms), `cwd`, `toolName` (lowercase:
 *   `bash`), `toolInput` (an object), `permissionSuggestions`.
 * - `preToolUse`: no `hookName` (the installed command names it with `--event`), `toolArgs`
 *   (an object; older releases and the docs: a JSON text).
 * A payload without readable arguments is refused: the operator would approve a call blind.
 * Answers:
 * - `permissionRequest` (before Copilot's own rules and prompt): top-level `behavior` allow /
 *   deny with `message`; `{}` falls through to Copilot's own flow; exit 2 denies.
 * - `preToolUse`: top-level `permissionDecision` allow / deny / ask with `permissionDecisionReason`.
 * A hook that fails (crashes, cannot start, exits non-zero) denies a permission request
 * ("Permission request hook failed", measured on 1.0.102; the docs say it is skipped), and
 * Muster installs `timeoutSec` above its own wait.
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
  recognizes: (o) =>
    typeof o.toolName === 'string' && ('toolInput' in o || 'toolArgs' in o || typeof o.hookName === 'string') && !('hook_event_name' in o),
  parse: (o, event) => {
    // the payload's own hook name first (1.0.102 sends it for permissionRequest), else the installed one
    const ev = optText(o, 'hookName') ?? event ?? 'permissionRequest'
    if (!(COPILOT_EVENTS as readonly string[]).includes(ev))
      throw new HookInputError(`unsupported Copilot CLI hook '${ev}' (approve-hook answers ${COPILOT_EVENTS.join(' and ')})`)
    const key = 'toolInput' in o ? 'toolInput' : 'toolArgs'
    return {
      harness: Harness.copilot,
      event: ev,
      tool_name: needText(o, 'toolName'),
      tool_input: toolInputOf(o[key], key, true),
      session_id: optText(o, 'sessionId'),
      cwd: optText(o, 'cwd'),
      tool_use_id: optText(o, 'toolCallId'),
      transcript_path: null,
      suggestions: Array.isArray(o.permissionSuggestions) ? (o.permissionSuggestions as unknown[]) : null
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
    'hub-unreachable': { outcome: 'blocked', how: 'permissionRequest: Muster answers nothing and Copilot asks you (`copilot -p`: denied)' },
    'build-missing': {
      outcome: 'blocked',
      how: 'the gate launcher denies with the reason; a hook that cannot start: Copilot denies ("hook failed")'
    },
    'hook-crash': {
      outcome: 'blocked',
      how: 'the gate launcher denies with the reason; a hook that fails: Copilot denies ("hook failed")'
    },
    'hook-timeout': {
      outcome: 'blocked',
      how: 'Muster denies as a timeout before `timeoutSec` (past it, Copilot asks you; `copilot -p`: denied)'
    },
    untrusted: { outcome: 'n/a', how: 'Copilot runs the hooks of a folder it was told to trust' },
    'bad-input': { outcome: 'blocked', how: 'Copilot’s own deny with the reason; nothing recorded' }
  },
  trust: { kind: 'none', how: 'hooks files of a trusted folder run' },
  versions: { bin: 'copilot', args: ['--version'], tested: '1.0.102' },
  noUsage: 'Copilot CLI’s usage records are not read yet'
}
