import { describe, expect, it } from 'vitest'
import { memoryHref, museRouteFromHash, roleHref } from './muse-route'
import { screenFromHash } from './screens'

describe('MUSE sub-routes', () => {
  it('round-trips role links, with and without a line', () => {
    expect(museRouteFromHash(roleHref('muse', 'build'))).toEqual({ kind: 'role', project: 'muse', role: 'build', line: null })
    expect(museRouteFromHash(roleHref('my proj', 'qa', 42))).toEqual({ kind: 'role', project: 'my proj', role: 'qa', line: 42 })
  })

  it('reads memory queries in any language and the send flag', () => {
    expect(museRouteFromHash(memoryHref('换行 patch'))).toEqual({ kind: 'memory', query: '换行 patch' })
    expect(museRouteFromHash('#/directives?send=1')).toEqual({ kind: 'directives', send: true })
    expect(museRouteFromHash('#/role/muse')).toEqual({ kind: 'directives', send: false })
  })

  it('ignores bad lines and bad escapes', () => {
    expect(museRouteFromHash('#/role/muse/build?line=-3')).toMatchObject({ line: null })
    expect(museRouteFromHash('#/role/%E0%A4%A/build')).toMatchObject({ kind: 'role', project: '%E0%A4%A' })
  })

  it('highlights the Directives sidebar entry for role and memory routes', () => {
    expect(screenFromHash('#/role/muse/build')).toBe('directives')
    expect(screenFromHash('#/memory?q=x')).toBe('directives')
    expect(screenFromHash('#/nowhere')).toBe('overview')
  })
})
