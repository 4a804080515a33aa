import { describe, expect, it } from 'vitest'
import { eventCount, noisy, spreadOf, summaryLine, type Figure } from '../bench/report'

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

describe('bench spread', () => {
  it('is the interquartile range of the runs, absent for fewer than 3 runs', () => {
    expect(spreadOf([1, 2])).toBeNull()
    expect(spreadOf([10, 20, 30, 40, 50])).toEqual({ median: 30, p25: 20, p75: 40, iqr: 20 })
    // one stalled run moves neither the median nor the spread much
    expect(spreadOf([10, 11, 12, 13, 900])!.iqr).toBe(2)
  })

  it('marks a figure whose spread is larger than its distance to the budget', () => {
    const f = (value: number, runs: number[]): Figure => ({ name: 'x', value, runs, unit: 'ms', budget: 100 })
    expect(noisy(f(50, [45, 50, 55]))).toBe(false) // 50 ms from the budget, spread 5 ms
    expect(noisy(f(95, [80, 95, 110]))).toBe(true) // 5 ms under, spread 15 ms
    expect(noisy(f(130, [125, 130, 135]))).toBe(false) // clearly over
    expect(noisy({ name: 'x', value: 0, unit: 'lines', budget: 0 })).toBe(false) // counted, no runs
  })
})

describe('bench summary', () => {
  it('counts figures over budget, within budget by less than 20%, and noisy ones', () => {
    const f = (value: number, runs?: number[]): Figure => ({ name: 'x', value, unit: 'ms', budget: 100, ...(runs ? { runs } : {}) })
    const figures = [f(50), f(85), f(95, [80, 95, 110]), f(130), { name: 'lost', value: 0, unit: 'lines', budget: 0 } as Figure]
    expect(summaryLine(figures)).toBe('5 figures: 1 over budget, 2 within budget by less than 20%, 1 marked ~')
  })
})
