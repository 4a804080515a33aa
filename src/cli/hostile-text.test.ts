/**
 * Hostile text shown safely in the CLI (issue 23, point 5): a pending tool call whose input erases
 * its own line (`\r\x1b[2K\x1b[1A`), retitles the window (OSC) or reorders itself (U+202E), and an
 * agent name with a zero-width space, reach the terminal escaped wherever the operator decides:
 * `approvals list`, `needs`, `events list`, `thread`.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { createHub } from '../core/hub/store/schema'
import { appendEvent } from '../core/hub/store/writer'
import { runCliAtHome } from '../../test/helpers/cli'

/** Characters a terminal acts on or hides: none may reach it raw. */
// eslint-disable-next-line no-control-regex -- the point: these must not appear
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u

const run = runCliAtHome

describe('hostile text in the CLI', () => {
  it('is shown escaped, never raw, where the operator decides', async () => {
    const home = tmpDir()
    const palace = join(tmpDir(), 'palace')
    const hub = createHub(palace)
    const command = 'rm -rf ~/x\r\x1b[2K\x1b[1A echo harmless \x1b]0;pwned\x07 #\u202e ; rm -rf ~'
    const agent = 'mac\u200bclaude'
    appendEvent(hub.db, hub.replicaId, {
      type: 'approval.request',
      stream: 'project/muse',
      room: 'approvals',
      from_agent: 'mac-claude',
      to_agent: '*',
      correlation_id: 'appr_0000000000aa',
      status: 'open',
      body: `Bash: ${command}`,
      metadata: { tool_name: 'Bash', tool_input: { command }, harness: 'claude-code', session_id: 's', cwd: '/w', timeout_ms: 540_000 }
    })
    appendEvent(hub.db, hub.replicaId, {
      type: 'task.request',
      stream: 'project/muse',
      room: 'delegation',
      from_agent: agent,
      to_agent: '*',
      correlation_id: 'task_s001_00000001',
      status: 'open',
      body: `Goal: ${command}`
    })
    hub.close()
    const outputs = [
      await run(home, 'approvals', 'list', '--palace', palace),
      await run(home, 'events', 'list', '--palace', palace),
      await run(home, 'thread', 'task_s001_00000001', '--palace', palace)
    ]
    for (const r of outputs) {
      expect(r.code, r.err).toBe(0)
      expect(r.out).not.toMatch(RAW)
    }
    const [approvals, events, thread] = outputs.map((r) => r.out)
    expect(approvals).toContain('rm -rf ~/x\\r\\x1b[2K\\x1b[1A echo harmless')
    expect(events).toContain('\\x1b]0;pwned\\x07')
    expect(events).toContain('#\\u202e ; rm -rf ~')
    expect(events).toContain('mac\\u200bclaude')
    expect(thread).toContain('mac\\u200bclaude')
  })
})
