import { describe, expect, it } from 'vitest'
import { withApprovals, type SessionState } from './session-state'

const session = (agent: string, session_id: string, state: SessionState['state'], since: string): SessionState => ({
  agent,
  session_id,
  state,
  since,
  stream: 'project/muse',
  harness: 'claude-code',
  hook_event: 'UserPromptSubmit',
  cwd: '/work/muse',
  event_id: `evt_${session_id}`,
  seq: 1,
  body: ''
})

describe('sessions shown with their pending approvals', () => {
  it('a session with a request in the inbox waits for your approval, since its oldest request', () => {
    const shown = withApprovals(
      [
        session('mac-claude', 's1', 'working', '2026-12-07T10:00:00Z'),
        session('mac-claude', 's2', 'working', '2026-12-07T10:01:00Z'),
        session('win-codex', 's1', 'waiting', '2026-12-07T10:02:00Z'),
        session('mac-claude', 's3', 'done', '2026-12-07T10:03:00Z')
      ],
      [
        { agent: 'mac-claude', session_id: 's1', created_at: '2026-12-07T10:05:00Z' },
        { agent: 'mac-claude', session_id: 's1', created_at: '2026-12-07T10:04:00Z' },
        // another agent's session of the same id, a request without a session, an ended session's
        { agent: 'lin-gemini', session_id: 's2', created_at: '2026-12-07T10:04:00Z' },
        { agent: 'mac-claude', session_id: null, created_at: '2026-12-07T10:04:00Z' },
        { agent: 'mac-claude', session_id: 's3', created_at: '2026-12-07T10:04:00Z' }
      ]
    )
    expect(shown.map((s) => [s.agent, s.session_id, s.shown, s.shownSince])).toEqual([
      ['mac-claude', 's1', 'approval', '2026-12-07T10:04:00Z'],
      ['mac-claude', 's2', 'working', '2026-12-07T10:01:00Z'],
      ['win-codex', 's1', 'waiting', '2026-12-07T10:02:00Z'],
      ['mac-claude', 's3', 'done', '2026-12-07T10:03:00Z']
    ])
  })
})
