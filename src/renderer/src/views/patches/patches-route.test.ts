import { describe, expect, it } from 'vitest'
import { patchesHref, patchesRouteFromHash } from './patches-route'

describe('the Patches screen address', () => {
  it('round-trips hub and state', () => {
    expect(patchesHref({ hub: 'team hub', state: 'waiting' })).toBe('#/patches?hub=team+hub&state=waiting')
    expect(patchesRouteFromHash(patchesHref({ hub: 'team hub', state: 'waiting' }))).toEqual({ hub: 'team hub', state: 'waiting' })
    expect(patchesHref({ hub: null, state: '' })).toBe('#/patches')
  })

  it('ignores other screens, unknown states and empty queries', () => {
    expect(patchesRouteFromHash('#/timeline?state=waiting')).toBeNull()
    expect(patchesRouteFromHash('#/patches')).toBeNull()
    expect(patchesRouteFromHash('#/patches?state=bogus')).toBeNull()
    expect(patchesRouteFromHash('#/patches?state=refused')).toEqual({ state: 'refused' })
  })
})

describe('a link to one patch', () => {
  it('carries its id', () => {
    expect(patchesHref({ hub: 'team', id: 'evt_1' })).toBe('#/patches?hub=team&id=evt_1')
    expect(patchesRouteFromHash('#/patches?hub=team&id=evt_1')).toEqual({ hub: 'team', id: 'evt_1' })
  })
})
