import { describe, expect, it } from 'vitest'
import { eventCount } from '../bench/report'

describe('bench figure names', () => {
  it('name the hub size actually generated (MUSTER_BENCH_EVENTS changes it)', () => {
    expect(eventCount(1_000_000)).toBe('1M')
    expect(eventCount(2_000_000)).toBe('2M')
    expect(eventCount(200_000)).toBe('200k')
    expect(eventCount(50_000)).toBe('50k')
    expect(eventCount(5_000)).toBe('5,000')
    expect(eventCount(1_234_567)).toBe('1,234,567')
  })
})
