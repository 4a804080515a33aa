import { describe, expect, it } from 'vitest'
import { noticeHash } from './notice-target'

describe('noticeHash', () => {
  it('opens the item a notice links to', () => {
    expect(
      noticeHash({ title: 't', body: 'b', target: 'approvals', hub: 'team', link: { kind: 'approval', id: 'appr_1', hub: 'team' } })
    ).toBe('#/approvals?id=appr_1&hub=team')
  })
  it('else the screen of its kind', () => {
    expect(noticeHash({ title: 't', body: 'b', target: 'approvals', hub: 'team' })).toBe('#/approvals')
    expect(noticeHash({ title: 't', body: 'b', target: 'inbox', hub: 'team hub' })).toBe('#/timeline?hub=team+hub')
    expect(noticeHash({ title: 't', body: 'b', target: 'inbox', hub: '' })).toBe('#/timeline')
  })
})
