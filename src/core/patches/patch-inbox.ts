/**
 * The patch inbox of one hub: the newest `patch.ready` events, each verified (without a
 * repository) and folded into its state with the acks of its thread, through the hub interface
 * only, so local and remote hubs alike.
 */
import { EventType } from '../../shared/contract/hub-vocabulary'
import { PATCH_STATES } from '../../shared/contract/hub-vocabulary'
import type { HubEvent, HubEventEnvelope, PatchCounts, PatchSummary, Project } from '../../shared/api'
import type { HubPort } from '../hub'
import { foldPatchState, type StateInputs } from './patch-state'
import { projectOfStream } from './preflight'
import { verifyPatch, type VerifiedPatch } from './verify'

/** Correlation keys per acks query (the hub's OR filter), and acks read per query. */
const KEYS_PER_QUERY = 50
const ACKS_PER_QUERY = 500

/** The acks and patches that decide the states of `patches`. */
export async function stateInputs(hub: HubPort, patches: readonly HubEventEnvelope[]): Promise<StateInputs> {
  const keys = [...new Set(patches.map((p) => p.correlation_id ?? p.id))]
  const acks: HubEventEnvelope[] = []
  const related: HubEventEnvelope[] = [...patches]
  for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
    const chunk = keys.slice(i, i + KEYS_PER_QUERY)
    const [a, p] = await Promise.all([
      hub.list({ type: EventType.ack, correlation_id: chunk, order: 'desc', limit: ACKS_PER_QUERY, preview: true }),
      hub.list({ type: EventType.patchReady, correlation_id: chunk, order: 'desc', limit: ACKS_PER_QUERY, preview: true })
    ])
    acks.push(...a.events)
    related.push(...p.events)
  }
  return { acks, patches: related }
}

/** The inbox row of one verified patch. */
export function summarize(
  event: HubEventEnvelope,
  verified: VerifiedPatch,
  around: StateInputs,
  projects: readonly Project[]
): PatchSummary {
  const v = verified.verification
  const s = foldPatchState(event, around, v.verdict === 'refused' ? v.refused[0]! : null)
  return {
    event: event as HubEvent,
    artifact_id: v.artifact_id,
    size_bytes: v.size.actual,
    project: projectOfStream(projects, event.stream)?.name ?? null,
    state: s.state,
    state_reason: s.reason,
    state_event_id: s.event_id,
    state_by: s.by,
    state_at: s.at,
    state_by_muster: s.byMuster,
    verdict: v.verdict,
    warning_count: v.warnings.length + v.findings.filter((f) => f.level === 'warning').length,
    file_count: v.files.length,
    additions: v.files.reduce((n, f) => n + f.additions, 0),
    deletions: v.files.reduce((n, f) => n + f.deletions, 0)
  }
}

/** Counts per state. */
export function countStates(rows: readonly PatchSummary[]): PatchCounts {
  const counts = Object.fromEntries(PATCH_STATES.map((s) => [s, 0])) as PatchCounts
  for (const r of rows) counts[r.state]++
  counts.total = rows.length
  return counts
}

/** The newest `limit` patches of a hub, verified and folded, newest first. */
export async function listPatches(
  hub: HubPort,
  projects: readonly Project[],
  limit: number
): Promise<{ patches: PatchSummary[]; truncated: boolean }> {
  const page = await hub.list({ type: EventType.patchReady, order: 'desc', limit })
  const around = await stateInputs(hub, page.events)
  const patches = await Promise.all(
    page.events.map(async (e) => {
      const artifacts = await Promise.all(e.artifact_ids.map((id) => hub.getArtifact(id)))
      return summarize(e, await verifyPatch({ event: e as HubEvent, artifacts }), around, projects)
    })
  )
  return { patches, truncated: page.has_more }
}
