import { describe, expect, it } from 'vitest'
import { foldThread } from './thread'
import type { HubEvent } from '../store/writer'

let seq = 0
const ev = (over: Partial<HubEvent>): HubEvent => ({
  id: `evt_${++seq}`,
  seq,
  origin_replica: null,
  origin_seq: null,
  hlc: null,
  type: 'event.ack',
  stream: 's',
  room: 'delegation',
  topic: null,
  from_agent: 'w',
  to_agent: 'r',
  correlation_id: 'task_x',
  branch: null,
  base_commit: null,
  status: null,
  artifact_ids: [],
  body: '',
  created_at: '2026-03-15T12:00:00Z',
  metadata: {},
  ...over
})

describe('foldThread', () => {
  it('open -> claimed -> ready -> applied, with who and when', () => {
    const req = ev({
      type: 'task.request',
      status: 'open',
      from_agent: 'r',
      to_agent: 'w',
      body: 'Goal:\nFix it\n\nDefinition of done:\nx'
    })
    const claim = ev({ status: 'claimed', metadata: { ack_of: req.id }, created_at: '2026-03-15T12:01:00Z' })
    expect(foldThread('task_x', [req]).state).toBe('open')
    expect(foldThread('task_x', [req, claim])).toMatchObject({
      state: 'claimed',
      state_by: 'w',
      claimed_by: 'w',
      claimed_at: '2026-03-15T12:01:00Z'
    })
    const patch = ev({ type: 'patch.ready', status: 'ready' })
    const applied = ev({ status: 'applied', from_agent: 'r', metadata: { ack_of: patch.id }, created_at: '2026-03-15T13:00:00Z' })
    const fold = foldThread('task_x', [applied, patch, claim, req]) // any input order: folded by seq
    expect(fold).toMatchObject({ state: 'applied', state_by: 'r', state_at: '2026-03-15T13:00:00Z', event_count: 4, stuck: false })
    expect(fold.request).toMatchObject({ title: 'Fix it', from_agent: 'r' })
    expect(fold.steps.map((s) => s.type)).toEqual(['task.request', 'event.ack', 'patch.ready', 'event.ack'])
  })

  it('a superseded ack voids what it references (and acks of it); superseding the request supersedes the task', () => {
    const req = ev({ type: 'task.request', status: 'open' })
    const claim = ev({ status: 'claimed', metadata: { ack_of: req.id } })
    const patch1 = ev({ type: 'patch.ready', status: 'ready' })
    const failed1 = ev({ status: 'failed', metadata: { ack_of: patch1.id } })
    const sup = ev({ status: 'superseded', from_agent: 'w', metadata: { ack_of: patch1.id } })
    const fold = foldThread('task_x', [req, claim, patch1, failed1, sup])
    expect(fold.state).toBe('claimed')
    expect(fold.steps.filter((s) => s.voided).map((s) => s.id)).toEqual([patch1.id, failed1.id])
    const supReq = ev({ status: 'superseded', from_agent: 'r', metadata: { ack_of: req.id } })
    expect(foldThread('task_x', [req, claim, supReq])).toMatchObject({ state: 'superseded', state_by: 'r' })
  })

  it('blocked and failed replies end the task; a claim with no terminal status past the threshold is stuck', () => {
    const req = ev({ type: 'task.request', status: 'open' })
    const claim = ev({ status: 'claimed', metadata: { ack_of: req.id }, created_at: '2026-03-15T12:00:00Z' })
    const now = Date.parse('2026-03-15T15:00:00Z')
    expect(foldThread('task_x', [req, claim], { now })).toMatchObject({ stuck: true, stuck_for_ms: 3 * 3600_000 })
    expect(foldThread('task_x', [req, claim], { now, stuckAfterMs: 4 * 3600_000 }).stuck).toBe(false)
    const blocked = ev({ type: 'task.reply', status: 'blocked' })
    expect(foldThread('task_x', [req, claim, blocked], { now })).toMatchObject({ state: 'blocked', stuck: false })
  })
})
