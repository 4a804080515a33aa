/** Which screen an address opens, and the sidebar entry it highlights. */
import { describe, expect, it } from 'vitest'
import { firstScreen, isScreenId, screenLabel, sidebarEntry } from './screens'

describe('firstScreen', () => {
  it('opens the needs-you queue on a phone and the Overview elsewhere when the address names none', () => {
    expect(firstScreen('', true)).toBe('needs')
    expect(firstScreen('#/', true)).toBe('needs')
    expect(firstScreen('', false)).toBe('overview')
  })
  it('opens what the address names, whatever the size', () => {
    expect(firstScreen('#/approvals?id=appr_1', true)).toBe('approvals')
    expect(firstScreen('#/needs', false)).toBe('needs')
    expect(firstScreen('#/role/muse/build', true)).toBe('directives')
  })
})

describe('the needs-you screen', () => {
  it('is a screen without a sidebar entry of its own, shown under the Overview', () => {
    expect(isScreenId('needs')).toBe(true)
    expect(screenLabel('needs')).toBe('Needs you')
    expect(sidebarEntry('needs')).toBe('overview')
    expect(sidebarEntry('timeline')).toBe('timeline')
    expect(isScreenId('toString')).toBe(false)
  })
})
