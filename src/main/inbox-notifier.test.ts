import { describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../shared/api'
import { notifyAttention, type Notice } from './inbox-notifier'

type Listener = (e: PushedEvent) => void

function fakeService(): { subscribe: (l: Listener) => () => void; push: (e: PushedEvent) => void; count: () => number } {
  const listeners = new Set<Listener>()
  return {
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    push: (e) => listeners.forEach((l) => l(e)),
    count: () => listeners.size
  }
}

const inbox = (unread: number, from: string): PushedEvent =>
  ({
    name: 'hub.inbox',
    payload: {
      hub: 'demo',
      palace: '/p',
      unread,
      latest: { from_agent: from, type: 'task.reply', status: 'blocked', body: 'need the staging token\nplease' }
    }
  }) as unknown as PushedEvent

describe('main-process notifications (binding of shared/notify/attention)', () => {
  it('shows one coalesced notice per window and stops after unsubscribe', () => {
    vi.useFakeTimers()
    try {
      const svc = fakeService()
      const shown: Notice[] = []
      const off = notifyAttention(svc, (n) => shown.push(n), 1000)
      svc.push(inbox(1, 'mac-claude'))
      svc.push(inbox(2, 'win-codex'))
      vi.advanceTimersByTime(999)
      expect(shown).toEqual([])
      vi.advanceTimersByTime(1)
      expect(shown).toEqual([
        {
          title: '2 unread events in your hub inbox',
          body: 'win-codex: task.reply (blocked) — need the staging token please\nalso from mac-claude',
          target: 'inbox',
          hub: 'demo'
        }
      ])
      svc.push(inbox(3, 'mac-claude'))
      off()
      vi.advanceTimersByTime(2000)
      expect(shown).toHaveLength(1)
      expect(svc.count()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
