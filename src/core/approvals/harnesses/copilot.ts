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
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { HookInputError, line, needText, optText, toolInputOf, type HarnessAdapter, type HookReply } from './types'

/** Copilot's hook events Muster answers. */
export const COPILOT_EVENTS = ['permissionRequest', 'preToolUse'] as const

const deny = (event: string | undefined, reason: string): HookReply =>
  event === 'preToolUse'
    ? { stdout: line({ permissionDecision: 'deny', permissionDecisionReason: reason }), exitCode: 0 }
    : { stdout: line({ behavior: 'deny', message: reason }), exitCode: 2, stderr: reason }

/** Copilot CLI. */
export const copilot: HarnessAdapter = {
  id: Harness.copilot,
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
  refuse: (reason, event) => deny(event, reason)
}
