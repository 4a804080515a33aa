import { describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../shared/api'
import { notifyInbox, summarise, type InboxNotice } from './inbox-notifier'

type Listener = (e: PushedEvent) => void

function fakeService(): { subscribe: (l: Listener) => () => void; push: (e: PushedEvent) => void } {
  const listeners = new Set<Listener>()
  return { subscribe: (l) => (listeners.add(l), () => listeners.delete(l)), push: (e) => listeners.forEach((l) => l(e)) }
}

const event = (from: string, body: string) =>
  ({ id: `evt_20261202T120000_${from.padEnd(12, '0').slice(0, 12)}`, type: 'task.reply', status: 'blocked', from_agent: from, body }) as never

function inbox(unread: number, from: string, hub = 'demo'): PushedEvent {
  return { name: 'hub.inbox', payload: { hub, palace: '/p', unread, latest: event(from, 'need the staging token\nplease') } } as PushedEvent
}

describe('inbox notifications', () => {
  it('coalesces a burst into one notification naming the senders', () => {
    vi.useFakeTimers()
    const svc = fakeService()
    const shown: InboxNotice[] = []
    notifyInbox(svc, (n) => shown.push(n), 1000)
    svc.push(inbox(1, 'mac-claude'))
    svc.push(inbox(2, 'win-codex'))
    svc.push({ name: 'projects.changed', payload: { at: 'x' } })
    expect(shown).toEqual([])
    vi.advanceTimersByTime(1000)
    expect(shown).toEqual([{ title: '2 unread events in your hub inbox', body: 'win-codex: task.reply (blocked) — need the staging token please\nalso from mac-claude' }])
    vi.useRealTimers()
  })

  it('says nothing for an emptied inbox and stops after unsubscribe', () => {
    vi.useFakeTimers()
    const svc = fakeService()
    const shown: InboxNotice[] = []
    const off = notifyInbox(svc, (n) => shown.push(n), 1000)
    svc.push(inbox(0, 'mac-claude'))
    vi.advanceTimersByTime(2000)
    off()
    svc.push(inbox(3, 'mac-claude'))
    vi.advanceTimersByTime(2000)
    expect(shown).toEqual([])
    expect(summarise([])).toBeNull()
    vi.useRealTimers()
  })
})
