/**
 * Codex (`~/.codex/hooks.json`): the Claude Code shape, on Codex's terms.
 * - `PermissionRequest` (interactive sessions, where Codex would ask): behavior allow / deny;
 *   printing nothing lets Codex ask. Codex refuses `updatedPermissions` (it fails the hook
 *   closed), so "always allow" is Muster's allowlist rule only.
 * - `PreToolUse` is a deny-only gate (for `codex exec`, which never asks): Codex accepts only
 *   `permissionDecision: "deny"` with a non-empty reason; an allow is "Hook failed". So an allow
 *   (or no decision) prints nothing and Codex goes on; a deny stops the call.
 * Exit 2 with a reason on stderr blocks in both.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { looksLikeCodex, parseToolEvent, permissionRequestAnswer, preToolUseAnswer, TOOL_EVENTS } from './claude-code'
import { exitTwo, type HarnessAdapter } from './types'

/** Codex. */
export const codex: HarnessAdapter = {
  id: Harness.codex,
  recognizes: (o) =>
    typeof o.hook_event_name === 'string' && (TOOL_EVENTS as readonly string[]).includes(o.hook_event_name) && looksLikeCodex(o),
  parse: (o) => parseToolEvent(o, Harness.codex),
  answer: (call, verdict, reason) => {
    if (call.event === 'PermissionRequest') return permissionRequestAnswer(verdict, reason)
    return verdict === 'deny' ? preToolUseAnswer('deny', reason.trim() || 'denied in Muster') : { stdout: '', exitCode: 0 }
  },
  refuse: (reason) => exitTwo(reason)
}
