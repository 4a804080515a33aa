/**
 * The JSON a harness hook receives on stdin (Claude Code `PreToolUse` / `PermissionRequest`,
 * Codex `PermissionRequest`): `session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`
 * and `tool_use_id` where present; other fields are ignored. Bad input is one clear error. No zod:
 * this runs in the hook process, on every tool call of every agent.
 */
import type { ToolInput } from '../../shared/approvals/tool-call'
import { HookEvent, type HookEventName } from '../../shared/contract/hub-vocabulary'

/** Stdin larger than this is refused (a tool input fits easily; the hub keeps 64 KiB of it). */
export const MAX_HOOK_INPUT_BYTES = 8 * 1024 * 1024

/** A hook's input, checked. */
export interface HookInput {
  hook_event_name: HookEventName
  tool_name: string
  tool_input: ToolInput
  session_id: string | null
  cwd: string | null
  tool_use_id: string | null
  transcript_path: string | null
  /** Which harness sent it, as far as the payload tells (Claude Code sends `permission_mode`). */
  harness_hint: 'claude-code' | 'codex' | null
}

/** A malformed hook input. */
export class HookInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HookInputError'
  }
}

const optText = (o: Record<string, unknown>, key: string): string | null => {
  const v = o[key]
  if (v === undefined || v === null) return null
  if (typeof v !== 'string') throw new HookInputError(`hook input field ${key} must be a string`)
  return v
}

/** Parses and checks a hook's stdin. */
export function parseHookInput(text: string): HookInput {
  if (text.trim() === '') throw new HookInputError('no hook input on stdin (expected the harness hook JSON)')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new HookInputError(`stdin is not valid JSON (${(err as Error).message})`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HookInputError('hook input must be a JSON object')
  const o = value as Record<string, unknown>
  const event = o.hook_event_name
  const events = Object.values(HookEvent) as string[]
  if (typeof event !== 'string') throw new HookInputError('hook input has no hook_event_name')
  if (!events.includes(event))
    throw new HookInputError(`unsupported hook_event_name '${event}' (approve-hook answers ${events.join(' and ')})`)
  if (typeof o.tool_name !== 'string' || o.tool_name.trim() === '') throw new HookInputError('hook input has no tool_name')
  if (!o.tool_input || typeof o.tool_input !== 'object' || Array.isArray(o.tool_input))
    throw new HookInputError('hook input tool_input must be a JSON object')
  const transcript = optText(o, 'transcript_path')
  const hint =
    'permission_mode' in o || /[\\/]\.claude[\\/]/.test(transcript ?? '')
      ? 'claude-code'
      : /[\\/]\.codex[\\/]/.test(transcript ?? '') || 'turn_id' in o
        ? 'codex'
        : null
  return {
    hook_event_name: event as HookEventName,
    tool_name: o.tool_name,
    tool_input: o.tool_input as ToolInput,
    session_id: optText(o, 'session_id'),
    cwd: optText(o, 'cwd'),
    tool_use_id: optText(o, 'tool_use_id'),
    transcript_path: transcript,
    harness_hint: hint
  }
}
