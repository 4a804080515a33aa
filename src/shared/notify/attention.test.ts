import { describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../api'
import type { NeedItem } from '../contract/needs-types'
import { NOTICE_COALESCE_MS, NoticeCoalescer, needsBadge, noticeFor, waitText, type DesktopNotice } from './attention'

const item = (kind: NeedItem['kind'], agent: string, title: string, detail = '', project = 'muse'): NeedItem => ({
  key: `${kind}:/p:${agent}:${title}`,
  kind,
  agent,
  project,
  hub: 'demo',
  palace: '/p',
  since: '2026-12-02T12:00:00Z',
  title,
  detail,
  ref: 'evt_1',
  link: `#/approvals?hub=demo&id=${agent}`
})
const changed = (added: NeedItem[], removed: string[] = []): PushedEvent => ({
  name: 'needs.changed',
  payload: { count: added.length, oldest: added[0] ?? null, added, removed, unread: { direct: 0, broadcast: 0 }, at: 'now' }
})

describe('needs-you notices', () => {
  it('one new item names itself, its detail and where; a click opens the item', () => {
    expect(noticeFor([item('approval', 'mac-claude', 'mac-claude asks to use Bash', 'Bash: git push origin main --tags')])).toEqual({
      title: 'mac-claude asks to use Bash',
      body: 'Bash: git push origin main --tags\nmuse · demo',
      target: 'approvals',
      hub: 'demo',
      link: '#/approvals?hub=demo&id=mac-claude'
    })
    expect(noticeFor([item('message', 'win-codex', 'win-codex: chat.message', 'look at CI')])?.target).toBe('inbox')
    expect(noticeFor([])).toBeNull()
  })

  it('several list up to three, then a count', () => {
    const items = ['a', 'b', 'c', 'd'].map((x) => item('approval', `agent-${x}`, `agent-${x} asks to use Bash`, '', 'dya'))
    expect(noticeFor(items)).toMatchObject({
      title: '4 new things need you',
      body: 'agent-a asks to use Bash (dya · demo)\nagent-b asks to use Bash (dya · demo)\nagent-c asks to use Bash (dya · demo)\n+1 more'
    })
  })

  it('only needs.changed counts: hub rows, inbox growth and heartbeats never notify', () => {
    vi.useFakeTimers()
    try {
      const shown: DesktopNotice[] = []
      const c = new NoticeCoalescer((x) => shown.push(x))
      c.push({ name: 'hub.inbox', payload: { hub: 'demo', palace: '/p', unread: 196, latest: null } })
      c.push({ name: 'hub.events', payload: { hub: 'demo', palace: '/p', events: [] } })
      c.push(changed([]))
      vi.advanceTimersByTime(NOTICE_COALESCE_MS * 2)
      expect(shown).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('coalesces a burst into one notice and drops items gone within the window (an allowlist answer)', () => {
    vi.useFakeTimers()
    try {
      const shown: DesktopNotice[] = []
      const c = new NoticeCoalescer((x) => shown.push(x))
      const quick = item('approval', 'linux-gemini', 'linux-gemini asks to use Bash')
      c.push(changed([quick]))
      c.push(changed([], [quick.key]))
      vi.advanceTimersByTime(NOTICE_COALESCE_MS)
      expect(shown).toEqual([])
      const a = item('approval', 'win-codex', 'win-codex asks to use Bash')
      c.push(changed([a]))
      c.push(changed([a, item('patch', 'mac-claude', 'Patch from mac-claude waiting to be applied')]))
      vi.advanceTimersByTime(NOTICE_COALESCE_MS - 1)
      expect(shown).toEqual([])
      vi.advanceTimersByTime(1)
      expect(shown.map((s) => s.title)).toEqual(['2 new things need you'])
      c.dispose()
    } finally {
      vi.useRealTimers()
    }
  })

  it('the badge counts and names the oldest item with its wait', () => {
    const now = Date.parse('2026-12-02T12:18:30Z')
    expect(needsBadge({ count: 3, oldest: item('approval', 'win-codex', 'win-codex asks to use Bash') }, now)).toEqual({
      count: 3,
      tooltip: '3 need you — oldest: win-codex asks to use Bash (18 min)'
    })
    expect(needsBadge({ count: 0, oldest: null })).toEqual({ count: 0, tooltip: 'Nothing needs you' })
    expect(waitText('2026-12-02T12:18:00Z', now)).toBe('30 s')
    expect(waitText('2026-12-01T09:00:00Z', now)).toBe('1 d')
  })
})
