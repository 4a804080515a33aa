import { describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../shared/api'
import { notifyAttention, type DesktopNotice } from './inbox-notifier'

type Listener = (e: PushedEvent) => void

function fakeService(): { subscribe: (l: Listener) => () => void; push: (e: PushedEvent) => void; count: () => number } {
  const listeners = new Set<Listener>()
  return {
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    push: (e) => listeners.forEach((l) => l(e)),
    count: () => listeners.size
  }
}

const added = (agent: string): PushedEvent => ({
  name: 'needs.changed',
  payload: {
    count: 1,
    oldest: null,
    added: [
      {
        key: `approval:/p:${agent}`,
        kind: 'approval',
        agent,
        project: 'muse',
        hub: 'demo',
        palace: '/p',
        since: '2026-12-02T12:00:00Z',
        title: `${agent} asks to use Bash`,
        detail: 'Bash: npm test',
        ref: 'evt_1',
        link: `#/approvals?hub=demo&id=${agent}`
      }
    ],
    removed: [],
    unread: { direct: 0, broadcast: 0 },
    at: 'now'
  }
})

describe('main-process notifications (binding of shared/notify/attention)', () => {
  it('shows one coalesced notice per window and stops after unsubscribe', () => {
    vi.useFakeTimers()
    try {
      const svc = fakeService()
      const shown: DesktopNotice[] = []
      const off = notifyAttention(svc, (n) => shown.push(n), 1000)
      svc.push(added('mac-claude'))
      svc.push(added('win-codex'))
      vi.advanceTimersByTime(999)
      expect(shown).toEqual([])
      vi.advanceTimersByTime(1)
      expect(shown).toEqual([
        {
          title: '2 new things need you',
          body: 'mac-claude asks to use Bash (muse · demo)\nwin-codex asks to use Bash (muse · demo)',
          target: 'approvals',
          hub: 'demo',
          link: '#/approvals?hub=demo&id=mac-claude'
        }
      ])
      svc.push(added('home-bot'))
      off()
      vi.advanceTimersByTime(2000)
      expect(shown).toHaveLength(1)
      expect(svc.count()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
