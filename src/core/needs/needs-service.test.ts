import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import type { PushedEvent } from '../../shared/api'
import type { NeedsChanged } from '../../shared/contract/needs-types'
import { createHub } from '../hub/store/schema'
import { appendEvent, type AppendWrite } from '../hub/store/writer'
import { createService } from '../root'

const open: { close(): unknown }[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

const OP = 'desk-op'
const ago = (min: number): Date => new Date(Date.now() - min * 60_000)

async function setup(watch = false) {
  const s = await createService({ home: join(tmpDir(), 'home'), transport: 'http', watch })
  open.push(s)
  await s.call('settings.update', { operatorId: OP })
  const palace = join(tmpDir(), 'palace')
  const hub = createHub(palace)
  open.push({ close: () => hub.db.close() })
  await s.call('hubs.add', { palace, name: 'h' })
  const put = (e: Partial<AppendWrite> & { type: string; from_agent: string }) =>
    appendEvent(hub.db, hub.replicaId, { stream: 'project/muse', room: 'r', ...e })
  return { s, hub, put }
}

let n = 0
function approval(
  put: (e: Partial<AppendWrite> & { type: string; from_agent: string }) => unknown,
  agent: string,
  min: number,
  session = 's1'
) {
  return put({
    type: 'approval.request',
    room: 'approvals',
    from_agent: agent,
    to_agent: OP,
    correlation_id: `appr_${(++n).toString(16).padStart(12, '0')}`,
    status: 'open',
    body: 'Bash: npm test',
    at: ago(min),
    metadata: {
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      harness: 'claude-code',
      session_id: session,
      cwd: '/w',
      timeout_ms: 86_400_000
    }
  })
}

function session(
  put: (e: Partial<AppendWrite> & { type: string; from_agent: string }) => unknown,
  agent: string,
  id: string,
  state: string,
  min: number
) {
  return put({
    type: 'status',
    room: 'status',
    topic: 'session',
    to_agent: '*',
    from_agent: agent,
    body: `codex session ${id}: ${state}`,
    at: ago(min),
    metadata: { session_id: id, harness: 'codex', state, hook_event: 'Stop', cwd: '/w', message: 'Which branch?' }
  })
}

describe('the needs-you queue', () => {
  it('holds approvals, tasks to the operator, stuck tasks, direct messages and waiting sessions, longest wait first', async () => {
    const { s, put } = await setup()
    approval(put, 'win-codex', 18)
    // a task addressed to the operator, and one the operator asked for that is now stuck
    put({
      type: 'task.request',
      from_agent: 'mac-claude',
      to_agent: OP,
      correlation_id: 'task_a',
      status: 'open',
      body: 'Review the plan',
      at: ago(40)
    })
    const req = put({
      type: 'task.request',
      from_agent: OP,
      to_agent: 'home-bot',
      correlation_id: 'task_b',
      status: 'open',
      body: 'Port it',
      at: ago(300)
    }) as { id: string }
    put({
      type: 'event.ack',
      from_agent: 'home-bot',
      to_agent: OP,
      correlation_id: 'task_b',
      status: 'claimed',
      body: 'on it',
      at: ago(290),
      metadata: { ack_of: req.id }
    })
    // a direct message, a broadcast and a heartbeat: only the first is a need
    put({ type: 'chat.message', from_agent: 'mac-claude', to_agent: OP, body: 'Can you look at CI?', at: ago(5) })
    put({ type: 'ci.result', from_agent: 'ci', to_agent: '*', body: 'green', at: ago(4) })
    put({
      type: 'status',
      room: 'status',
      from_agent: 'home-bot',
      to_agent: '*',
      stream: 'presence',
      body: 'home-bot watching',
      at: ago(1)
    })
    // sessions: one waiting, one waiting then done, one waiting with its approval pending (the approval stands for it)
    session(put, 'win-codex', 'sess-1', 'waiting', 10)
    session(put, 'mac-claude', 'sess-2', 'waiting', 9)
    session(put, 'mac-claude', 'sess-2', 'done', 8)
    session(put, 'win-codex', 's1', 'waiting', 17)

    const q = await s.call('needs.list', {})
    expect(q.items.map((i) => [i.kind, i.agent])).toEqual([
      ['stuck', 'home-bot'],
      ['task', 'mac-claude'],
      ['approval', 'win-codex'],
      ['session', 'win-codex'],
      ['message', 'mac-claude']
    ])
    expect(q.count).toBe(5)
    expect(q.oldest?.kind).toBe('stuck')
    expect(q.counts).toMatchObject({ approval: 1, task: 1, stuck: 1, message: 1, session: 1, patch: 0, directive: 0 })
    // unread direct messages apart from broadcasts: the approval, the task, the ack and the message are to the operator
    expect(q.unread.direct).toBe(4)
    expect(q.unread.broadcast).toBe(1) // the CI result (the heartbeat and the session states are broadcast status: never unread)
    const approvalItem = q.items.find((i) => i.kind === 'approval')!
    expect(approvalItem).toMatchObject({ hub: 'h', project: 'muse', title: 'win-codex asks to use Bash' })
    expect(approvalItem.link).toMatch(/^#\/approvals\?hub=h&id=evt_/)
    expect(q.items.find((i) => i.kind === 'stuck')!.link).toBe('#/timeline?correlation_id=task_b&order=asc&hub=h&thread=task_b')
    expect(q.sources[0]).toEqual(expect.objectContaining({ hub: 'h', ok: true, unread: { direct: 4, broadcast: 1 } }))

    // reading the inbox clears the message; kind filters narrow
    await s.call('hub.markRead', { hub: 'h' })
    const after = await s.call('needs.list', { kind: ['message', 'approval'] })
    expect(after.items.map((i) => i.kind)).toEqual(['approval'])
    expect(after.unread).toEqual({ direct: 0, broadcast: 0 })
  })

  it('the Overview agrees: an agent needs me for its oldest item, presence age apart', async () => {
    const { s, put } = await setup()
    put({ type: 'status', room: 'status', from_agent: 'win-codex', to_agent: '*', stream: 'presence', body: 'watching', at: ago(28) })
    approval(put, 'win-codex', 18)
    approval(put, 'win-codex', 3)
    // an unread broadcast from mac-claude does not make it "need me"
    put({ type: 'chat.message', from_agent: 'mac-claude', to_agent: '*', body: 'hello all', at: ago(2) })
    const o = (await s.call('hub.overview', {})).hubs[0]!
    const codex = o.agents.find((a) => a.agent === 'win-codex')!
    expect(codex.state).toBe('needs-me')
    expect(codex.needs).toMatchObject({ count: 2 })
    expect(Math.round((Date.now() - Date.parse(codex.needs!.since)) / 60_000)).toBe(18)
    expect(o.agents.find((a) => a.agent === 'mac-claude')!.state).not.toBe('needs-me')
    expect(o.approvals_waiting).toBe(2)
    expect(o.needs).toMatchObject({ count: 2, unread_direct: 2, unread_broadcast: 1 }) // the chat broadcast; presence is never unread
  })

  it('directives pending for a role the operator answers for join the queue', async () => {
    const { directiveNeeds, directiveDate } = await import('./need-items')
    const now = new Date(2026, 2, 20, 12, 0)
    expect(directiveDate('3/13 16:00', now)?.toISOString()).toBe(new Date(2026, 2, 13, 16, 0).toISOString())
    expect(directiveDate('12/30', now)?.getFullYear()).toBe(2025)
    expect(directiveDate('2026-03-02 19:20', now)?.getDate()).toBe(2)
    expect(directiveDate('soon', now)).toBeNull()
    const d = (id: string, project: string, role: string, state = 'pending') =>
      ({
        key: `${id}@${project}/${role}`,
        id,
        target: `${project}/${role}`.toUpperCase(),
        resolution: { kind: 'role', project, key: project, role, file: `${role}.md` },
        state,
        title: 'Ship it',
        source: { project: 'dya', role: 'gm', date: '3/13', line: 4 },
        receipt: null,
        occurrences: []
      }) as never
    const items = directiveNeeds(
      [d('S1', 'atlas', 'build'), d('S2', 'atlas', 'gm'), d('S3', 'dya', 'gm', 'received'), d('S4', 'dya', 'GM')],
      ['gm'],
      now
    )
    expect(items.map((i) => i.ref)).toEqual(['S2', 'S4'])
    expect(items[0]).toMatchObject({ kind: 'directive', project: 'atlas', agent: 'dya/gm', link: '#/directives?id=S2&key=S2%40atlas%2Fgm' })
    expect(directiveNeeds([d('S1', 'atlas', 'build')], ['atlas/BUILD'], now)).toHaveLength(1)
    expect(directiveNeeds([d('S1', 'atlas', 'build')], [], now)).toHaveLength(0)
  })

  it('a watching service pushes needs.changed for a new approval, never for a heartbeat', async () => {
    const { s, put } = await setup(true)
    const pushes: NeedsChanged[] = []
    s.subscribe((e: PushedEvent) => {
      if (e.name === 'needs.changed') pushes.push(e.payload)
    })
    await s.call('needs.list', {})
    const settle = async (): Promise<void> => {
      // the tail polls the file; give it several rounds, then let the debounce run
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 100))
        await s.call('needs.list', {})
      }
    }
    await settle()
    const before = pushes.length
    put({ type: 'status', room: 'status', from_agent: 'home-bot', to_agent: '*', stream: 'presence', body: 'heartbeat' })
    await settle()
    expect(pushes.length).toBe(before)
    approval(put, 'win-codex', 0)
    await expect.poll(() => pushes.flatMap((p) => p.added).length, { timeout: 15_000 }).toBe(1)
    const last = pushes[pushes.length - 1]!
    expect(last.added[0]).toMatchObject({ kind: 'approval', agent: 'win-codex' })
    expect(last.count).toBe(1)
  })
})
