import { describe, expect, it } from 'vitest'
import { stageWords } from './stage-words'

describe('stageWords', () => {
  it('says how far a request got, and a delivered allow that never ran as such', () => {
    expect(stageWords({ stage: 'done', outcome: 'ran', state: 'allow' })).toBe('ran')
    expect(stageWords({ stage: 'withdrawn', outcome: null, state: 'allow' })).toBe('never ran (withdrawn)')
    expect(stageWords({ stage: 'withdrawn', outcome: null, state: 'withdrawn' })).toBe('withdrawn')
    expect(stageWords({ stage: 'delivered', outcome: null, state: 'deny' })).toBe('delivered')
    expect(stageWords({ stage: 'not_delivered', outcome: null, state: 'abandoned' })).toBe('not delivered')
    expect(stageWords({ state: 'allow' })).toBe('-')
  })
})
