import { describe, expect, it } from 'vitest'
import { approvalLink } from '../shared/links'
import { noticeHash } from './notice-target'

describe('noticeHash', () => {
  it('opens the item a notice links to', () => {
    const link = approvalLink('team', 'evt_1')
    expect(noticeHash({ target: 'approvals', hub: 'team', link })).toBe(link)
  })
  it('else the screen of its kind; never an address outside the app', () => {
    expect(noticeHash({ target: 'approvals', hub: 'team' })).toBe('#/approvals')
    expect(noticeHash({ target: 'inbox', hub: 'team hub' })).toBe('#/timeline?hub=team+hub')
    expect(noticeHash({ target: 'inbox', hub: '' })).toBe('#/timeline')
    expect(noticeHash({ target: 'approvals', hub: 'team', link: 'https://evil.test/' })).toBe('#/approvals')
  })
})
