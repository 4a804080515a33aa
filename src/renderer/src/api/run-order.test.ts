import { describe, expect, it } from 'vitest'
import type { ApplyRun } from '../../../shared/api'
import { newerRun } from './run-order'

const run = (revision: number, phase: ApplyRun['phase'], id = 'run_1'): ApplyRun => ({
  id,
  hub: '/p',
  event_id: 'evt_1',
  artifact_id: 'art_1',
  project: 'dya',
  repo: '/r',
  started_at: '2026-12-03T10:00:00Z',
  finished_at: null,
  phase,
  outcome: 'running',
  reason: null,
  check: null,
  applied: false,
  test: null,
  head_before: null,
  head_after: null,
  ack_event_id: null,
  ack_error: null,
  evidence: null,
  revertable: false,
  reverted_at: null,
  revision
})

describe('newerRun', () => {
  it('keeps a pushed later phase when the apply call answers late with the run as it started', () => {
    const pushed = run(4, 'testing')
    expect(newerRun(pushed, run(0, 'checking'))).toBe(pushed)
  })

  it('takes a newer or equal copy, the first copy, and another run', () => {
    const testing = run(4, 'testing')
    const done = run(9, 'done')
    expect(newerRun(testing, done)).toBe(done)
    expect(newerRun(undefined, testing)).toBe(testing)
    const other = run(0, 'checking', 'run_2')
    expect(newerRun(testing, other)).toBe(other)
  })
})
