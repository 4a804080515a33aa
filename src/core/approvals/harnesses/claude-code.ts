/**
 * Claude Code (`~/.claude/settings.json`, hooks `PreToolUse` and `PermissionRequest`).
 * - PreToolUse: `hookSpecificOutput.permissionDecision` allow / deny / ask with a reason.
 * - PermissionRequest (fires only where Claude Code would show its own dialog):
 *   `hookSpecificOutput.decision.behavior` allow / deny (`message` on deny); "always allow" adds
 *   the `updatedPermissions` Claude Code itself offered (`permission_suggestions`). It has no
 *   "ask": printing nothing lets Claude Code show its dialog.
 * Exit 2 blocks the call (and denies a permission request), with stderr as the reason.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import {
  exitTwo,
  HookInputError,
  line,
  needText,
  optText,
  toolInputOf,
  type HarnessAdapter,
  type HarnessCall,
  type HookReply,
  type HookVerdict
} from './types'

/** The hook events of Claude Code (and Codex, which copied them) that ask about one tool call. */
export const TOOL_EVENTS = ['PreToolUse', 'PermissionRequest'] as const

/** Parses a Claude-Code-shaped tool event (Codex sends the same shape). */
export function parseToolEvent(o: Record<string, unknown>, harness: HarnessCall['harness']): HarnessCall {
  const event = needText(o, 'hook_event_name')
  if (!(TOOL_EVENTS as readonly string[]).includes(event))
    throw new HookInputError(`unsupported hook_event_name '${event}' (approve-hook answers ${TOOL_EVENTS.join(' and ')})`)
  const suggestions = Array.isArray(o.permission_suggestions) ? (o.permission_suggestions as unknown[]) : null
  return {
    harness,
    event,
    tool_name: needText(o, 'tool_name'),
    tool_input: toolInputOf(o.tool_input ?? null, 'tool_input'),
    session_id: optText(o, 'session_id'),
    cwd: optText(o, 'cwd'),
    tool_use_id: optText(o, 'tool_use_id'),
    transcript_path: optText(o, 'transcript_path'),
    suggestions
  }
}

/** `PreToolUse`'s answer: the decision with its reason. */
export function preToolUseAnswer(verdict: HookVerdict, reason: string): HookReply {
  return {
    stdout: line({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: verdict, permissionDecisionReason: reason } }),
    exitCode: 0
  }
}

/** `PermissionRequest`'s answer; `updatedPermissions` only where given. */
export function permissionRequestAnswer(verdict: HookVerdict, reason: string, updatedPermissions?: unknown[] | null): HookReply {
  if (verdict === 'ask') return { stdout: '', exitCode: 0 }
  const decision =
    verdict === 'allow'
      ? { behavior: 'allow', ...(updatedPermissions?.length ? { updatedPermissions } : {}) }
      : { behavior: 'deny', message: reason }
  return { stdout: line({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }), exitCode: 0 }
}

/** True for a Codex payload: its `turn_id` and `model`, or a transcript under `.codex`. */
export function looksLikeCodex(o: Record<string, unknown>): boolean {
  const t = typeof o.transcript_path === 'string' ? o.transcript_path : ''
  return ('turn_id' in o && 'model' in o) || /[\\/]\.codex[\\/]/.test(t)
}

/** Claude Code. */
export const claudeCode: HarnessAdapter = {
  id: Harness.claudeCode,
  recognizes: (o) =>
    typeof o.hook_event_name === 'string' && (TOOL_EVENTS as readonly string[]).includes(o.hook_event_name) && !looksLikeCodex(o),
  parse: (o) => parseToolEvent(o, Harness.claudeCode),
  answer: (call, verdict, reason, extras) =>
    call.event === 'PermissionRequest'
      ? permissionRequestAnswer(verdict, reason, extras?.always ? call.suggestions : null)
      : preToolUseAnswer(verdict, reason),
  refuse: (reason) => exitTwo(reason)
}
