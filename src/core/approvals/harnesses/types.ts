/**
 * What every harness adapter provides: it recognises its own hook payload (looking at the payload
 * as a whole), turns it into one tool call for the operator, and prints the answer in the
 * harness's own format. The wait for the operator is not the adapter's: every harness goes
 * through the one core path in `approve-hook.ts`. No zod: this runs in the hook process.
 */
import type { ToolInput } from '../../../shared/approvals/tool-call'
import type { HarnessId } from '../../../shared/contract/hub-vocabulary'

/** One tool call a harness asks about, in Muster's terms. */
export interface HarnessCall {
  harness: HarnessId
  /** The harness's own hook event name, as received (or as installed, when the payload has none). */
  event: string
  tool_name: string
  tool_input: ToolInput
  session_id: string | null
  cwd: string | null
  tool_use_id: string | null
  transcript_path: string | null
  /** The harness's own "always allow" updates it offered (Claude Code `permission_suggestions`). */
  suggestions: unknown[] | null
}

/** The hook's verdict: `ask` leaves the decision to the harness's own prompt. */
export type HookVerdict = 'allow' | 'deny' | 'ask'

/** What the hook prints and how it exits. */
export interface HookReply {
  stdout: string
  exitCode: number
  /** A line for stderr (exit 2 reasons are read from there by most harnesses). */
  stderr?: string
}

/** An answer's extras. */
export interface AnswerExtras {
  /** The operator approved and asked to always allow: return the harness's own permission update where it keeps one. */
  always?: boolean
}

/** One harness. */
export interface HarnessAdapter {
  id: HarnessId
  /** True when the payload is this harness's (`event` is the one installed, for payloads without one). */
  recognizes(o: Record<string, unknown>, event?: string): boolean
  /** The call, or a HookInputError for a payload of this harness that cannot be used. */
  parse(o: Record<string, unknown>, event?: string): HarnessCall
  /** The answer in the harness's own format. */
  answer(call: HarnessCall, verdict: HookVerdict, reason: string, extras?: AnswerExtras): HookReply
  /** How this harness is told "no" when its payload cannot be used: its own deny, or exit 2 with the reason. */
  refuse(reason: string, event?: string): HookReply
}

/** A malformed hook input. */
export class HookInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HookInputError'
  }
}

/** Exit 2 with the reason on stderr: every harness here treats it as "block this call". */
export function exitTwo(reason: string): HookReply {
  return { stdout: '', exitCode: 2, stderr: reason }
}

/** A string field or null; anything else is a HookInputError. */
export function optText(o: Record<string, unknown>, key: string): string | null {
  const v = o[key]
  if (v === undefined || v === null) return null
  if (typeof v !== 'string') throw new HookInputError(`hook input field ${key} must be a string`)
  return v
}

/** A required, non-empty string field. */
export function needText(o: Record<string, unknown>, key: string): string {
  const v = o[key]
  if (typeof v !== 'string' || v.trim() === '') throw new HookInputError(`hook input has no ${key}`)
  return v
}

/** A tool input: an object, or (where `text` is allowed: Cursor and Copilot send text) a JSON text holding one. */
export function toolInputOf(v: unknown, key: string, text = false): ToolInput {
  if (typeof v === 'string' && text) {
    if (v.trim() === '') return {}
    try {
      v = JSON.parse(v)
    } catch {
      return { value: v }
    }
  }
  if (v === undefined || v === null) return {}
  if (typeof v !== 'object' || Array.isArray(v)) throw new HookInputError(`hook input ${key} must be a JSON object`)
  return v as ToolInput
}

/** One JSON line. */
export const line = (v: unknown): string => JSON.stringify(v) + '\n'
