import { describe, expect, it, vi } from 'vitest'
import {
  createNeedsYouPresenter,
  feedNeedsYou,
  needsYouView,
  NOTHING_WAITS,
  summaryFromNeeds,
  waitedFor,
  type NeedsYouSummary
} from './needs-you'

const NOW = Date.parse('2026-05-01T12:00:00Z')

const need = (over: Record<string, unknown> = {}) =>
  ({
    key: 'approval:team:evt_1',
    kind: 'approval',
    agent: 'win-codex',
    project: 'muse',
    hub: 'team',
    palace: '/p',
    since: '2026-05-01T11:42:00Z',
    title: 'win-codex wants to run npm test in muse',
    detail: 'Bash npm test',
    ref: 'evt_1',
    link: '#/approvals?hub=team&id=evt_1',
    ...over
  }) as never

describe('summaryFromNeeds', () => {
  it('takes the count and the oldest item of the needs-you queue', () => {
    expect(summaryFromNeeds({ count: 4, oldest: need() })).toEqual({
      count: 4,
      oldest: {
        kind: 'approval',
        title: 'win-codex wants to run npm test in muse',
        since: '2026-05-01T11:42:00Z',
        link: '#/approvals?hub=team&id=evt_1'
      }
    })
    expect(summaryFromNeeds({ count: 0, oldest: null })).toEqual(NOTHING_WAITS)
  })
  it('opens only addresses of the app', () => {
    expect(summaryFromNeeds({ count: 1, oldest: need({ link: 'https://evil.example/' }) }).oldest?.link).toBeNull()
  })
})

describe('needsYouView', () => {
  it('says nothing needs you and clears the badge', () => {
    expect(needsYouView(NOTHING_WAITS, NOW)).toEqual({ badge: 0, tooltip: 'Muster: nothing needs you', oldestLabel: null })
  })
  it('gives the count and the oldest item with how long it waited', () => {
    const s: NeedsYouSummary = {
      count: 3,
      oldest: { kind: 'approval', title: 'win-codex: Bash npm test', since: '2026-05-01T11:42:00Z', link: null }
    }
    expect(needsYouView(s, NOW)).toEqual({
      badge: 3,
      tooltip: 'Muster: 3 items need you. Oldest: approval: win-codex: Bash npm test (waiting 18 min)',
      oldestLabel: 'Open the oldest: approval: win-codex: Bash npm test (waiting 18 min)'
    })
    expect(needsYouView({ ...s, count: 1 }, NOW).tooltip).toContain('1 item needs you')
  })
  it('keeps menu lines short and on one line', () => {
    const s: NeedsYouSummary = { count: 1, oldest: { kind: 'approval', title: `a\nb ${'x'.repeat(500)}`, since: 'garbage', link: null } }
    const v = needsYouView(s, NOW)
    expect(v.oldestLabel).not.toContain('\n')
    expect(v.oldestLabel!.length).toBeLessThan(120)
    expect(v.oldestLabel).not.toContain('waiting')
  })
})

describe('waitedFor', () => {
  it('rounds down to the largest unit', () => {
    expect(waitedFor('2026-05-01T11:59:31Z', NOW)).toBe('now')
    expect(waitedFor('2026-05-01T11:00:00Z', NOW)).toBe('1 h')
    expect(waitedFor('2026-04-28T12:00:00Z', NOW)).toBe('3 d')
    expect(waitedFor('2026-05-01T12:05:00Z', NOW)).toBe('now') // a clock ahead is no negative wait
  })
})

describe('createNeedsYouPresenter', () => {
  it('sets badge, overlay, tray tooltip, title and menu; the same view twice changes nothing', () => {
    const calls: unknown[][] = []
    const show = createNeedsYouPresenter({
      setBadgeCount: (n) => (calls.push(['badge', n]), true),
      setOverlay: (n) => calls.push(['overlay', n]),
      tray: { setToolTip: (t) => calls.push(['tooltip', t]), setTitle: (t) => calls.push(['title', t]) },
      setMenu: (label, item) => calls.push(['menu', label, item?.link ?? null]),
      now: () => NOW
    })
    const s = summaryFromNeeds({ count: 1, oldest: need() })
    show(s)
    expect(calls).toEqual([
      ['badge', 1],
      ['overlay', 1],
      ['tooltip', 'Muster: 1 item needs you. Oldest: approval: win-codex wants to run npm test in muse (waiting 18 min)'],
      ['title', '1'],
      ['menu', 'Open the oldest: approval: win-codex wants to run npm test in muse (waiting 18 min)', '#/approvals?hub=team&id=evt_1']
    ])
    calls.length = 0
    show(s)
    expect(calls).toEqual([])
    show(NOTHING_WAITS)
    expect(calls).toEqual([
      ['badge', 0],
      ['overlay', 0],
      ['tooltip', 'Muster: nothing needs you'],
      ['title', ''],
      ['menu', null, null]
    ])
  })
  it('works without a tray (a desktop without a status area)', () => {
    const setBadgeCount = vi.fn(() => false)
    createNeedsYouPresenter({ setBadgeCount, tray: null, setMenu: () => {}, now: () => NOW })({ count: 2, oldest: null })
    expect(setBadgeCount).toHaveBeenCalledWith(2)
  })
})

describe('feedNeedsYou', () => {
  it('reads at once, after changes settle (a burst is one read) and never two reads at a time', async () => {
    vi.useFakeTimers()
    try {
      let listener: () => void = () => {}
      let n = 0
      let release: () => void = () => {}
      const read = vi.fn(
        () =>
          new Promise<NeedsYouSummary>((resolve) => {
            n++
            release = () => resolve({ count: n, oldest: null })
          })
      )
      const shown: number[] = []
      const stop = feedNeedsYou({
        read,
        subscribe: (l) => ((listener = l), () => {}),
        show: (s) => shown.push(s.count),
        debounceMs: 100,
        refreshMs: 60_000
      })
      expect(read).toHaveBeenCalledTimes(1)
      listener()
      listener()
      listener()
      await vi.advanceTimersByTimeAsync(100)
      expect(read).toHaveBeenCalledTimes(1) // the first read is still running: one more is queued
      release()
      await vi.advanceTimersByTimeAsync(0)
      expect(shown).toEqual([1])
      expect(read).toHaveBeenCalledTimes(2)
      release()
      await vi.advanceTimersByTimeAsync(0)
      expect(shown).toEqual([1, 2])
      await vi.advanceTimersByTimeAsync(60_000)
      expect(read).toHaveBeenCalledTimes(3) // the slow refresh keeps the ages true
      stop()
      release()
      await vi.advanceTimersByTimeAsync(0)
      expect(shown).toEqual([1, 2]) // nothing shown after stop
    } finally {
      vi.useRealTimers()
    }
  })
  it('reports a failed read and carries on', async () => {
    const log = vi.fn()
    const show = vi.fn()
    const stop = feedNeedsYou({ read: () => Promise.reject(new Error('hub locked')), subscribe: () => () => {}, show, log })
    await new Promise((r) => setTimeout(r, 0))
    expect(log).toHaveBeenCalledWith('could not read what needs you: hub locked')
    expect(show).not.toHaveBeenCalled()
    stop()
  })
})
