import { describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../api'
import { attentionFrom, NOTICE_COALESCE_MS, NoticeCoalescer, noticeFor, type Notice } from './attention'

let n = 0
function ev(type: string, from: string, corr: string, body: string, metadata: Record<string, unknown> = {}, stream = 'project/muse') {
  n++
  return {
    id: `evt_20261202T120000_${String(n).padStart(12, '0')}`,
    seq: n,
    origin_replica: null,
    origin_seq: null,
    hlc: null,
    type,
    stream,
    room: 'approvals',
    topic: null,
    from_agent: from,
    to_agent: '*',
    correlation_id: corr,
    branch: null,
    base_commit: null,
    status: 'open',
    artifact_ids: [],
    body,
    created_at: '2026-12-02T12:00:00Z',
    metadata
  }
}
const events = (...list: ReturnType<typeof ev>[]): PushedEvent => ({
  name: 'hub.events',
  payload: { hub: 'demo', palace: '/p', events: list }
})
const request = (agent: string, corr: string, body: string, tool = 'Bash', stream = 'project/muse') =>
  ev('approval.request', agent, corr, body, { tool_name: tool }, stream)
const decision = (corr: string) => ev('approval.decision', 'desk-muster', corr, 'allow: ok', { decision: 'allow' })
const inbox = (unread: number, type = 'task.reply'): PushedEvent =>
  ({
    name: 'hub.inbox',
    payload: { hub: 'demo', palace: '/p', unread, latest: { ...ev(type, 'win-codex', 'task_x', 'blocked on token'), status: 'blocked' } }
  }) as PushedEvent

describe('attention notices', () => {
  it('one approval names agent, project, tool and the summary', () => {
    const { items } = attentionFrom(events(request('mac-claude', 'appr_00000001', 'Bash: git push origin main --tags')))
    expect(noticeFor(items)).toEqual({
      title: 'mac-claude needs approval (muse, Bash)',
      body: 'Bash: git push origin main --tags',
      target: 'approvals',
      hub: 'demo'
    })
  })

  it('several approvals list up to three, then a count; inbox growth is mentioned once', () => {
    const reqs = ['a', 'b', 'c', 'd'].map((x, i) => request(`agent-${x}`, `appr_0000000${i}`, `Bash: cmd ${x}`, 'Bash', 'project/dya'))
    const items = [...attentionFrom(events(...reqs)).items, ...attentionFrom(inbox(2)).items]
    expect(noticeFor(items)).toEqual({
      title: '4 approvals waiting',
      body: 'agent-a · dya · Bash: cmd a\nagent-b · dya · Bash: cmd b\nagent-c · dya · Bash: cmd c\n+1 more\nand 2 unread in your hub inbox',
      target: 'approvals',
      hub: 'demo'
    })
  })

  it('an approval request in the inbox is not announced twice; an emptied inbox says nothing', () => {
    expect(attentionFrom(inbox(1, 'approval.request')).items).toEqual([])
    expect(attentionFrom(inbox(0)).items).toEqual([])
    expect(attentionFrom({ name: 'projects.changed', payload: { at: 'x' } }).items).toEqual([])
    expect(noticeFor([])).toBeNull()
  })

  it('coalesces a burst into one notice and drops approvals decided within the window (allowlist)', () => {
    vi.useFakeTimers()
    try {
      const shown: Notice[] = []
      const c = new NoticeCoalescer((x) => shown.push(x))
      c.push(events(request('linux-gemini', 'appr_000000aa', 'Bash: npm test')))
      c.push(events(decision('appr_000000aa')))
      // a request and its decision in one batch never notify either
      c.push(events(request('linux-gemini', 'appr_000000bb', 'Bash: npm test'), decision('appr_000000bb')))
      vi.advanceTimersByTime(NOTICE_COALESCE_MS)
      expect(shown).toEqual([])
      c.push(events(request('win-codex', 'appr_000000cc', 'Bash: git push --force-with-lease', 'Bash', 'project/dya')))
      c.push(events(request('mac-claude', 'appr_000000dd', 'Edit: .env.production', 'Edit')))
      vi.advanceTimersByTime(NOTICE_COALESCE_MS - 1)
      expect(shown).toEqual([])
      vi.advanceTimersByTime(1)
      expect(shown.map((s) => s.title)).toEqual(['2 approvals waiting'])
      c.dispose()
    } finally {
      vi.useRealTimers()
    }
  })
})
