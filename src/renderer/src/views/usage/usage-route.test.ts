/** The Usage screen's address, as the needs-you queue links a crossed budget. */
import { describe, expect, it } from 'vitest'
import { usageLink } from '../../../../shared/links'
import { screenFromHash, screenLabel, SCREENS } from '../../lib/screens'
import { budgetFromHash } from './usage-route'

describe('the Usage screen’s address', () => {
  it('a budget’s link opens the Usage screen with that budget marked', () => {
    expect(screenFromHash(usageLink(7))).toBe('usage')
    expect(budgetFromHash(usageLink(7))).toBe(7)
    expect(screenFromHash(usageLink())).toBe('usage')
    expect(budgetFromHash(usageLink())).toBeNull()
  })

  it('reads no budget from a bad id', () => {
    for (const bad of ['#/usage?budget=', '#/usage?budget=0', '#/usage?budget=-2', '#/usage?budget=1.5', '#/usage?budget=x'])
      expect(budgetFromHash(bad)).toBeNull()
  })

  it('is in the sidebar (and so the command palette) with its own chord and digit', () => {
    const usage = SCREENS.find((s) => s.id === 'usage')
    expect(screenLabel('usage')).toBe('Usage')
    expect(usage).toMatchObject({ chord: 'u', digit: 7 })
    expect(new Set(SCREENS.map((s) => s.chord)).size).toBe(SCREENS.length)
    expect(new Set(SCREENS.map((s) => s.digit)).size).toBe(SCREENS.length)
  })
})
