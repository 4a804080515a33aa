/**
 * What `muster approve-hook` prints: the harness's own JSON answer for the hook event.
 * - PreToolUse: `hookSpecificOutput` with `hookEventName`, `permissionDecision` (allow/deny/ask)
 *   and `permissionDecisionReason`.
 * - PermissionRequest: `hookSpecificOutput.decision` with `behavior` allow/deny (`message` on deny).
 *   It has no "ask": not deciding (empty output) lets the harness show its own prompt.
 */
import { HookEvent, type HookEventName } from '../../shared/contract/hub-vocabulary'

/** The hook's verdict. */
export type HookVerdict = 'allow' | 'deny' | 'ask'

/** The text to print on stdout (empty = no decision). */
export function hookAnswer(event: HookEventName, verdict: HookVerdict, reason: string): string {
  if (event === HookEvent.preToolUse) {
    return (
      JSON.stringify({ hookSpecificOutput: { hookEventName: event, permissionDecision: verdict, permissionDecisionReason: reason } }) + '\n'
    )
  }
  if (verdict === 'ask') return ''
  const decision = verdict === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: reason }
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, decision } }) + '\n'
}
