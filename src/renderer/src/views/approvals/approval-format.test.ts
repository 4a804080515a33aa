/**
 * What the inbox says happens to a pending request nobody answers: a real request's hook gives up
 * at its timeout; a test request (no hook waits for it) leaves the inbox as expired, never "the
 * hook gives up".
 */
import { describe, expect, it } from 'vitest'
import { EXPIRY_GRACE_MS } from '../../../../shared/approvals/expiry'
import { unansweredEnd } from './approval-format'

const created = '2026-12-07T20:00:00Z'
const t0 = Date.parse(created)
const TEN_MIN = 10 * 60_000
const expires = new Date(t0 + TEN_MIN).toISOString()

describe('unansweredEnd', () => {
  it('a real request: its hook gives up at its timeout', () => {
    const end = unansweredEnd({ created_at: created, timeout_ms: TEN_MIN, expires_at: expires }, t0 + 60_000)
    expect(end).toEqual({ label: 'Hook gives up', text: 'in 9 min 00 s', hint: 'the hook gives up in 9 min 00 s', soon: false })
    expect(unansweredEnd({ created_at: created, timeout_ms: null, expires_at: null }, t0).text).toBe('unknown')
  })

  it('a test request: no hook gives up; it leaves the inbox at its own expiry (timeout plus grace)', () => {
    const item = { created_at: created, timeout_ms: TEN_MIN, expires_at: expires, test: true }
    const end = unansweredEnd(item, t0 + 60_000)
    expect(end.label).not.toMatch(/hook/i)
    expect(end.text).not.toMatch(/hook/i)
    expect(end.hint).not.toMatch(/hook/i)
    // 10 min + the 30 s grace, a minute in
    expect(end.text).toBe('leaves the inbox in 9 min 30 s; nothing runs')
    expect(end.soon).toBe(false)
    expect(unansweredEnd(item, t0 + TEN_MIN + EXPIRY_GRACE_MS + 1000).text).toMatch(/^leaves the inbox now/)
  })
})
