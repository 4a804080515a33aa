/**
 * The harnesses' lifecycle hooks, read as session states (src/shared/contract/session-state.ts):
 * which events each harness offers and what each one says about the session is in its own file
 * (`harnesses/<harness>.ts`, `lifecycle`, and its `receipts`: the events after a call Muster
 * answered, and the ones that end a session's waits); this reads one payload through them.
 * Pure and import-light: the session hook runs on every prompt of every agent.
 */
import type { ToolInput } from '../../shared/approvals/tool-call'
import type { ReceiptOutcome } from '../../shared/contract/hub-vocabulary'
import type { SessionStateMetadata } from '../../shared/contract/session-state'
import type { CallMatch } from './receipt-markers'
import { adapterFor, detectLifecycle, LIFECYCLE_HARNESSES } from './harnesses'

/** The lifecycle events per harness (install name) and the state each one means. */
export const SESSION_HOOK_EVENTS = Object.fromEntries(LIFECYCLE_HARNESSES.map((h) => [h.name, h.lifecycle!.events]))

/** A message is kept this short (the event stays compact). */
export const MAX_SESSION_MESSAGE = 200

/** What a session's end does to the calls it still has markers for (`withdrawn`, or `denied` where the user refused them). */
export type SessionEnd = 'withdrawn' | 'denied'

/** A per-call receipt event (PostToolUse, ...): the outcome, and the call it names. */
export interface CallReceiptRead {
  session_id: string
  harness: string
  hook_event: string
  outcome: ReceiptOutcome
  call: CallMatch
}

/**
 * What one lifecycle hook call says, or why nothing is recorded: a session state (with `end` when
 * it ends the session's waits: SessionEnd, Interrupt), or a receipt of one call.
 */
export type SessionRead =
  | { ok: true; state: SessionStateMetadata; transcript_path: string | null; end: SessionEnd | null }
  | { ok: true; state: null; receipt: CallReceiptRead }
  | { ok: false; reason: string }

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)
const clip = (s: string): string => (s.length > MAX_SESSION_MESSAGE ? `${s.slice(0, MAX_SESSION_MESSAGE - 1)}…` : s)

/** Reads one lifecycle hook payload (text) into a session state; `src` is what the installed command names. */
export function readSessionHook(input: string, src: { harness?: string; event?: string } = {}): SessionRead {
  let o: unknown
  try {
    o = JSON.parse(input)
  } catch {
    return { ok: false, reason: 'the hook input is not JSON' }
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, reason: 'the hook input is not a JSON object' }
  const p = o as Record<string, unknown>
  const named = src.harness ? adapterFor(src.harness) : null
  const harness = src.harness ? (named?.lifecycle ? named : null) : detectLifecycle(p)
  if (!harness) return { ok: false, reason: src.harness ? `no lifecycle hooks for --harness ${src.harness}` : 'unknown hook input' }
  const event = text(p.hook_event_name) ?? text(p.hookName) ?? src.event ?? null
  if (!event) return { ok: false, reason: 'the hook input names no event (install with --event)' }
  const life = harness.lifecycle!
  const receipts = life.receipts
  const own = <T>(r: Readonly<Record<string, T>> | undefined): T | undefined => (r && Object.hasOwn(r, event) ? r[event] : undefined)
  const ends = own(receipts?.ends)
  const state = own(life.events) ?? ends
  const outcome = own(receipts?.calls)
  if (!state && !outcome) return { ok: false, reason: `${event} is not a lifecycle event of ${harness.id}` }
  const session_id = text(p.session_id) ?? text(p.sessionId)
  if (!session_id) return { ok: false, reason: 'the hook input has no session id' }
  if (outcome) {
    const input = p.tool_input && typeof p.tool_input === 'object' && !Array.isArray(p.tool_input) ? (p.tool_input as ToolInput) : null
    return {
      ok: true,
      state: null,
      receipt: {
        session_id,
        harness: harness.id,
        hook_event: event,
        outcome: outcome(p),
        call: { tool_use_id: text(p.tool_use_id), tool_name: text(p.tool_name), tool_input: input }
      }
    }
  }
  const message = life.message(event, p)
  // the session ended or was interrupted: what it still waits for is withdrawn
  const end: SessionEnd | null = state === 'done' || ends ? (receipts?.endOutcome?.(event, p) ?? 'withdrawn') : null
  return {
    ok: true,
    state: {
      session_id,
      harness: harness.id,
      state: state!,
      hook_event: event,
      cwd: typeof p.cwd === 'string' ? p.cwd : '',
      ...(message ? { message: clip(message.replace(/\s+/g, ' ').trim()) } : {})
    },
    // the harness's record of the session (read for usage by the worker; never sent to the hub)
    transcript_path: text(p.transcript_path),
    end
  }
}

/** The one-line body of a session state event. */
export function sessionBody(s: SessionStateMetadata): string {
  const what = { working: 'working', waiting: 'waiting for input', done: 'done', interrupted: 'interrupted' }[s.state]
  return `${s.harness} session ${s.session_id.slice(0, 12)}: ${what}${s.message ? ` (${s.message})` : ''}`
}
