/**
 * Agent session state events (written by the harness lifecycle hooks, read by the needs-you queue):
 * an ordinary hub event `type=status`, `room=status`, `topic=session`, `to_agent='*'`,
 * `stream=project/<slug>`, `from_agent` = the agent id the approve-hook uses, body one line, and
 * metadata `{session_id, harness, state: working|waiting|done, hook_event, cwd, message?}`. A
 * session's current state is its latest such event; "since" is that event's `created_at`.
 * Plain TypeScript (no Node): the renderer, the core and the hooks share it.
 */

/** The event type, room and topic of a session state event. */
export const SESSION_EVENT = { type: 'status', room: 'status', topic: 'session' } as const

/** What a session is doing (`interrupted`: the user stopped its turn; it waits for a new prompt). */
export const SESSION_STATES = ['working', 'waiting', 'done', 'interrupted'] as const
/** A session state. */
export type SessionStateName = (typeof SESSION_STATES)[number]

/** The metadata of a session state event. */
export interface SessionStateMetadata {
  session_id: string
  harness: string
  state: SessionStateName
  hook_event: string
  cwd: string
  message?: string
  /** When the harness ran the hook (ISO); the hub may receive hooks out of order, so this orders them. */
  at?: string
}

/** One session's state as the latest event says it. */
export interface SessionState extends SessionStateMetadata {
  /** The agent that runs the session (`from_agent`). */
  agent: string
  stream: string
  /** The event that set this state, its seq, and when it was written (the state's "since"). */
  event_id: string
  seq: number
  since: string
  body: string
}

/** The fields of a hub event this module reads. */
interface EventLike {
  id: string
  seq: number
  type: string
  room: string
  topic: string | null
  from_agent: string
  stream: string
  body: string
  created_at: string
  metadata: Record<string, unknown>
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null)

/** The session state an event carries, or null when it is not a well-formed session state event. */
export function sessionStateOf(e: EventLike): SessionState | null {
  if (e.type !== SESSION_EVENT.type || e.topic !== SESSION_EVENT.topic) return null
  const m = e.metadata
  const session_id = str(m.session_id)
  const state = str(m.state)
  if (!session_id || !state || !(SESSION_STATES as readonly string[]).includes(state)) return null
  const at = str(m.at) && !Number.isNaN(Date.parse(m.at as string)) ? (m.at as string) : null
  return {
    agent: e.from_agent,
    stream: e.stream,
    session_id,
    harness: str(m.harness) ?? 'unknown',
    state: state as SessionStateName,
    hook_event: str(m.hook_event) ?? '',
    cwd: typeof m.cwd === 'string' ? m.cwd : '',
    ...(str(m.message) ? { message: m.message as string } : {}),
    ...(at ? { at } : {}),
    event_id: e.id,
    seq: e.seq,
    since: at ?? e.created_at,
    body: e.body
  }
}

/** The key of a session: its agent and session id. */
export const sessionKey = (s: Pick<SessionState, 'agent' | 'session_id'>): string => `${s.agent}\u0000${s.session_id}`

/** True when `a` came after `b`: by the hook's own time where both have one, else by seq. */
function later(a: SessionState, b: SessionState): boolean {
  if (a.at && b.at && a.at !== b.at) return Date.parse(a.at) > Date.parse(b.at)
  return a.seq > b.seq
}

/** Folds session state events (any order) into each session's latest state (by the hook's time, else seq). */
export function foldSessions(events: readonly EventLike[]): SessionState[] {
  const latest = new Map<string, SessionState>()
  for (const e of events) {
    const s = sessionStateOf(e)
    if (!s) continue
    const key = sessionKey(s)
    const held = latest.get(key)
    if (!held || later(s, held)) latest.set(key, s)
  }
  return [...latest.values()]
}

/** How a session is shown: its state, or `approval` while one of its tool calls waits for the operator. */
export type SessionShownState = SessionStateName | 'approval'

/** A pending approval request as far as sessions read it. */
export interface PendingOfSession {
  agent: string
  session_id: string | null
  created_at: string
}

/**
 * The sessions with the state to show: "waiting for your approval" (`approval`, since its oldest
 * pending request) while one of its requests waits for the operator and the session has not
 * ended; else the state its hooks reported, since then.
 */
export function withApprovals<S extends SessionState>(
  sessions: readonly S[],
  pending: readonly PendingOfSession[]
): (S & { shown: SessionShownState; shownSince: string })[] {
  const oldest = new Map<string, string>()
  for (const p of pending) {
    if (!p.session_id) continue
    const key = sessionKey({ agent: p.agent, session_id: p.session_id })
    const held = oldest.get(key)
    if (!held || Date.parse(p.created_at) < Date.parse(held)) oldest.set(key, p.created_at)
  }
  return sessions.map((s) => {
    const since = s.state !== 'done' ? oldest.get(sessionKey(s)) : undefined
    return since ? { ...s, shown: 'approval' as const, shownSince: since } : { ...s, shown: s.state, shownSince: s.since }
  })
}
