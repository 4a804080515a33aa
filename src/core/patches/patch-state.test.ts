/**
 * The inbox's `superseded`: a hub ack says it (upstream's rule); otherwise only Muster's own view,
 * labelled as such, and only when the SAME sender posted a newer patch in the thread. A newer patch
 * from another agent never hides a sender's patch: it stays waiting.
 */
import { describe, expect, it } from 'vitest'
import type { HubEventEnvelope } from '../../shared/api'
import { foldPatchState } from './patch-state'

let seq = 0
function ev(over: Partial<HubEventEnvelope>): HubEventEnvelope {
  seq++
  return {
    id: `evt_${seq}`,
    seq,
    origin_replica: null,
    origin_seq: null,
    hlc: null,
    type: 'patch.ready',
    stream: 'project/app',
    room: 'delegation',
    topic: null,
    from_agent: 'mac-claude',
    to_agent: 'operator',
    correlation_id: 'task_1',
    branch: null,
    base_commit: null,
    status: 'ready',
    artifact_ids: [],
    body: '',
    created_at: '2026-12-05T10:00:00Z',
    metadata: {},
    ...over
  }
}

describe('patch state: superseded', () => {
  it('a newer patch from another agent in the thread never hides the sender’s patch', () => {
    const mine = ev({ from_agent: 'mac-claude' })
    const theirs = ev({ from_agent: 'win-codex' })
    const s = foldPatchState(mine, { acks: [], patches: [mine, theirs] }, null)
    expect(s).toMatchObject({ state: 'waiting', byMuster: false })
  })

  it('the sender’s own newer patch supersedes it, as Muster’s labelled view', () => {
    const first = ev({ from_agent: 'mac-claude' })
    const second = ev({ from_agent: 'mac-claude' })
    const s = foldPatchState(first, { acks: [], patches: [first, second] }, null)
    expect(s).toMatchObject({ state: 'superseded', byMuster: true, event_id: second.id, by: 'mac-claude' })
    expect(s.reason).toBe(`Muster's view (no hub event says so): mac-claude sent a newer patch in this thread (${second.id})`)
    expect(foldPatchState(second, { acks: [], patches: [first, second] }, null).state).toBe('waiting')
  })

  it('a superseded ack is the hub’s word, whoever sent the patch', () => {
    const mine = ev({ from_agent: 'mac-claude' })
    const ack = ev({
      type: 'event.ack',
      from_agent: 'operator',
      status: 'superseded',
      metadata: { ack_of: mine.id },
      body: 'replaced by #2'
    })
    const s = foldPatchState(mine, { acks: [ack], patches: [mine] }, null)
    expect(s).toMatchObject({ state: 'superseded', byMuster: false, reason: 'superseded by operator: replaced by #2' })
  })
})
