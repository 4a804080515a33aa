/** The CLI's `age` says how long ago as the screens do (shared/relative-time.ts). */
import { describe, expect, it } from 'vitest'
import { relativeTime } from '../shared/relative-time'
import { age } from './output'

describe('age', () => {
  it('agrees with the screens at every distance, and says never for none', () => {
    const now = Date.parse('2026-03-01T12:00:00Z')
    for (const [offsetS, text] of [
      [5, 'just now'],
      [90, '2 min ago'],
      [3 * 3600, '3 h ago'],
      [5 * 86400, '5 d ago'],
      [60 * 86400, '2025-12-31']
    ] as const) {
      const iso = new Date(now - offsetS * 1000).toISOString()
      expect(age(iso, now)).toBe(text)
      expect(relativeTime(iso, now)).toBe(text)
    }
    expect(age(null, now)).toBe('never')
  })
})
