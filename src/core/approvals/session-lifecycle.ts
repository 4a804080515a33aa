/**
 * The harnesses' lifecycle hooks, read as session states (src/shared/contract/session-state.ts):
 * which events each harness offers, and what each one says about the session.
 * - Claude Code: SessionStart (waiting), UserPromptSubmit (working), Notification (waiting: a
 *   permission dialog or an idle prompt), Stop (waiting: the turn is over), SessionEnd (done).
 * - Codex: SessionStart, UserPromptSubmit, Stop (it has no SessionEnd).
 * - Gemini CLI: SessionStart, BeforeAgent (working), AfterAgent (waiting), Notification, SessionEnd.
 * - Copilot CLI: sessionStart, userPromptSubmitted, agentStop, sessionEnd (camelCase, no event name
 *   in the payload: the installed command names it with `--event`; `sessionId`).
 * Pure and import-light: the session hook runs on every prompt of every agent.
 */
import type { SessionStateMetadata, SessionStateName } from '../../shared/contract/session-state'

/** The lifecycle events per harness (install name) and the state each one means. */
export const SESSION_HOOK_EVENTS: Record<'claude' | 'codex' | 'gemini' | 'copilot', Record<string, SessionStateName>> = {
  claude: { SessionStart: 'waiting', UserPromptSubmit: 'working', Notification: 'waiting', Stop: 'waiting', SessionEnd: 'done' },
  codex: { SessionStart: 'waiting', UserPromptSubmit: 'working', Stop: 'waiting' },
  gemini: { SessionStart: 'waiting', BeforeAgent: 'working', AfterAgent: 'waiting', Notification: 'waiting', SessionEnd: 'done' },
  copilot: { sessionStart: 'waiting', userPromptSubmitted: 'working', agentStop: 'waiting', sessionEnd: 'done' }
}
/** A harness with lifecycle hooks. */
export type SessionHarness = keyof typeof SESSION_HOOK_EVENTS

/** Harness ids (as `--harness` takes them) by install name. */
const HARNESS_IDS: Record<string, SessionHarness> = {
  claude: 'claude',
  'claude-code': 'claude',
  codex: 'codex',
  gemini: 'gemini',
  'qwen-code': 'gemini',
  copilot: 'copilot'
}
const HARNESS_LABEL: Record<SessionHarness, string> = { claude: 'claude-code', codex: 'codex', gemini: 'gemini', copilot: 'copilot' }

/** A message is kept this short (the event stays compact). */
export const MAX_SESSION_MESSAGE = 200

/** What one lifecycle hook call says, or why nothing is recorded. */
export type SessionRead = { ok: true; state: SessionStateMetadata } | { ok: false; reason: string }

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)
const clip = (s: string): string => (s.length > MAX_SESSION_MESSAGE ? `${s.slice(0, MAX_SESSION_MESSAGE - 1)}…` : s)

/** The harness of a payload without `--harness`: Copilot's camelCase, Codex's turn fields, Gemini's agent events. */
function detect(o: Record<string, unknown>): SessionHarness | null {
  if (typeof o.sessionId === 'string' && !('hook_event_name' in o)) return 'copilot'
  const event = o.hook_event_name
  if (typeof event !== 'string') return null
  const transcript = typeof o.transcript_path === 'string' ? o.transcript_path : ''
  if ('turn_id' in o || /[\\/]\.codex[\\/]/.test(transcript)) return 'codex'
  if (event === 'BeforeAgent' || event === 'AfterAgent' || /[\\/]\.gemini[\\/]/.test(transcript)) return 'gemini'
  return 'claude'
}

/** The operator-facing line of a state change. */
function messageOf(harness: SessionHarness, event: string, o: Record<string, unknown>): string | null {
  if (event === 'Notification' || event === 'notification') return text(o.message)
  if (event === 'SessionEnd' || event === 'sessionEnd') return text(o.reason)
  if (event === 'Stop' || event === 'AfterAgent' || event === 'agentStop')
    return text(o.last_assistant_message) ?? text(o.prompt_response) ?? null
  if (harness === 'copilot' && event === 'sessionStart') return text(o.initialPrompt)
  return null
}

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
  const harness = src.harness ? HARNESS_IDS[src.harness] : detect(p)
  if (!harness) return { ok: false, reason: src.harness ? `no lifecycle hooks for --harness ${src.harness}` : 'unknown hook input' }
  const event = text(p.hook_event_name) ?? src.event ?? null
  if (!event) return { ok: false, reason: 'the hook input names no event (install with --event)' }
  const state = SESSION_HOOK_EVENTS[harness][event]
  if (!state) return { ok: false, reason: `${event} is not a lifecycle event of ${HARNESS_LABEL[harness]}` }
  const session_id = text(p.session_id) ?? text(p.sessionId)
  if (!session_id) return { ok: false, reason: 'the hook input has no session id' }
  const message = messageOf(harness, event, p)
  return {
    ok: true,
    state: {
      session_id,
      harness: HARNESS_LABEL[harness],
      state,
      hook_event: event,
      cwd: typeof p.cwd === 'string' ? p.cwd : '',
      ...(message ? { message: clip(message.replace(/\s+/g, ' ').trim()) } : {})
    }
  }
}

/** The one-line body of a session state event. */
export function sessionBody(s: SessionStateMetadata): string {
  const what = { working: 'working', waiting: 'waiting for input', done: 'done' }[s.state]
  return `${s.harness} session ${s.session_id.slice(0, 12)}: ${what}${s.message ? ` (${s.message})` : ''}`
}
