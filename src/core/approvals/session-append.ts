/**
 * Appends one session state (read by `session-lifecycle.ts`) to the hub as the compact `status`
 * event of src/shared/contract/session-state.ts: room `status`, topic `session`, to everyone, in
 * the project's stream, from the agent the hooks report. Run by the session hook's detached worker,
 * never in the harness's own wait.
 */
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import { SESSION_EVENT, type SessionStateMetadata } from '../../shared/contract/session-state'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { projectStream } from './approval-events'
import type { HookContext } from './approve-hook'
import { sessionBody } from './session-lifecycle'

/** One session state to record. */
export interface SessionRecord {
  agent: string
  /** `--project`, else the registered project holding the session's cwd, else its folder name. */
  project?: string
  state: SessionStateMetadata
}

/** Appends the session state event; throws when the hub cannot take it. */
export async function appendSessionState(ctx: HookContext, r: SessionRecord): Promise<HubEventEnvelope> {
  const hub = ctx.hub
  if ('unreachable' in hub) throw new Error(hub.unreachable)
  // never creates a hub: a palace that does not exist yet is not the operator's hub
  const status = await hub.status()
  if (!status.exists) throw new Error(status.offline_reason ?? `no hub at ${hub.label}`)
  const cwd = r.state.cwd || null
  const project = r.project ?? ctx.projectFor(cwd) ?? cwd?.split(/[\\/]/).filter(Boolean).pop() ?? 'unknown'
  return hub.append({
    type: SESSION_EVENT.type,
    room: SESSION_EVENT.room,
    topic: SESSION_EVENT.topic,
    stream: projectStream(project),
    from_agent: r.agent,
    to_agent: BROADCAST,
    body: sessionBody(r.state),
    metadata: { ...r.state }
  })
}
