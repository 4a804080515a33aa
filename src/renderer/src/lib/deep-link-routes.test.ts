/** The `muster://` links' hash routes (src/shared/deep-link.ts), read back by the screens' own address parsers. */
import { describe, expect, it } from 'vitest'
import { deepLinkHash } from '../../../shared/deep-link'
import { requestFromHash, tabFromHash } from '../views/approvals/approvals-store'
import { patchesRouteFromHash } from '../views/patches/patches-route'
import { queryFromHash } from '../views/timeline/timeline-query'
import { screenFromHash } from './screens'

describe('deepLinkHash', () => {
  it('opens the Approvals screen on the request', () => {
    const hash = deepLinkHash({ kind: 'approval', id: 'appr_1', hub: 'team' })
    expect(screenFromHash(hash)).toBe('approvals')
    expect(tabFromHash(hash)).toBe('pending')
    expect(requestFromHash(hash)).toEqual({ id: 'appr_1', hub: 'team' })
    expect(requestFromHash(deepLinkHash({ kind: 'approval', id: 'a', hub: null }))).toEqual({ id: 'a', hub: null })
  })

  it('opens the Patches screen on the patch', () => {
    const hash = deepLinkHash({ kind: 'patch', id: 'evt_1', hub: 'team hub' })
    expect(screenFromHash(hash)).toBe('patches')
    expect(patchesRouteFromHash(hash)).toEqual({ hub: 'team hub', id: 'evt_1' })
  })

  it('opens the Timeline filtered to the thread, as the Timeline reads its address', () => {
    const hash = deepLinkHash({ kind: 'thread', id: 'corr&1', hub: 'team' })
    expect(screenFromHash(hash)).toBe('timeline')
    expect(queryFromHash(hash)).toEqual({ filters: { correlation_id: 'corr&1' }, order: 'asc', hub: 'team' })
    expect(new URLSearchParams(hash.split('?')[1]).get('thread')).toBe('corr&1')
    expect(queryFromHash(deepLinkHash({ kind: 'thread', id: 'c', hub: null }))?.hub).toBeNull()
  })
})
