import { describe, expect, it } from 'vitest'
import { deepLinkFromArgv, deepLinkUrl, parseDeepLink } from './deep-link'

describe('parseDeepLink', () => {
  it('reads the three forms, with and without a hub', () => {
    expect(parseDeepLink('muster://approval/appr_123')).toEqual({ kind: 'approval', id: 'appr_123', hub: null })
    expect(parseDeepLink('muster://patch/evt_9?hub=team')).toEqual({ kind: 'patch', id: 'evt_9', hub: 'team' })
    expect(parseDeepLink('muster://thread/corr-1/')).toEqual({ kind: 'thread', id: 'corr-1', hub: null })
    expect(parseDeepLink('MUSTER://Approval/x')).toEqual({ kind: 'approval', id: 'x', hub: null })
    expect(parseDeepLink('muster://approval/a%20b%2Fc?hub=team%20hub')).toEqual({ kind: 'approval', id: 'a b/c', hub: 'team hub' })
  })

  it('refuses everything else', () => {
    for (const raw of [
      'muster://settings/x',
      'muster://approval',
      'muster://approval/',
      'muster://approval/a/b',
      'muster://approval/x?hub=a&hub=b',
      'muster://approval/x?token=1',
      'muster://user:pw@approval/x',
      'muster://approval:99/x',
      'muster://approval/%E0%A4%A',
      'muster://approval/a%0Ab',
      'muster://approval/x?hub=a%00',
      `muster://approval/${'a'.repeat(300)}`,
      `muster://approval/x?hub=${'h'.repeat(300)}`,
      'https://approval/x',
      'javascript:alert(1)',
      'muster:approval/x',
      'not a link',
      '',
      42,
      null
    ]) {
      expect(parseDeepLink(raw), String(raw)).toBeNull()
    }
  })

  it('round-trips through deepLinkUrl', () => {
    for (const link of [
      { kind: 'approval', id: 'appr_1', hub: null },
      { kind: 'patch', id: 'evt/with slash', hub: 'team hub' },
      { kind: 'thread', id: 'ü-ñ', hub: 'h&x=1' }
    ] as const) {
      expect(parseDeepLink(deepLinkUrl(link))).toEqual(link)
    }
  })
})

describe('deepLinkFromArgv', () => {
  it('finds the link Windows and Linux pass on the command line', () => {
    expect(deepLinkFromArgv(['/opt/Muster/muster', '--no-sandbox', 'muster://thread/c1'])).toEqual({ kind: 'thread', id: 'c1', hub: null })
    expect(deepLinkFromArgv(['Muster.exe', 'muster://bogus/x', 'muster://patch/p'])).toEqual({ kind: 'patch', id: 'p', hub: null })
    expect(deepLinkFromArgv(['/opt/Muster/muster', '--home', '/tmp/h'])).toBeNull()
  })
})
