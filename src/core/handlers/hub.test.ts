import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { servicesClosedAfterEach } from '../../../test/helpers/test-service'
import { tmpDir } from '../../../test/helpers/tmp'
import type { PushedEvent } from '../../shared/api'
import { createHub } from '../hub/store/schema'
import { appendEvent } from '../hub/store/writer'

const service = servicesClosedAfterEach()
const script = (name: string): string => fileURLToPath(new URL(`../../../test/${name}`, import.meta.url))

/** Runs test/hub_writer.py (an independent MemPalace-style writer) and returns the ids it wrote. */
function pyWrite(palace: string, steps: unknown[]): string[] {
  const file = join(tmpDir(), 'script.json')
  writeFileSync(file, JSON.stringify(steps))
  return JSON.parse(execFileSync('python3', [script('hub_writer.py'), palace, file], { encoding: 'utf8' })) as string[]
}

describe('hub handlers', () => {
  it('hub.list pages by numeric seq cursors (exclusive), combined with event-id anchors', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    for (let i = 0; i < 10; i++)
      await s.call('hub.append', { hub: 'h', type: 'chat.message', stream: 'project/x', room: 'rooms', body: `m${i}` })
    const seqs = (r: { events: { seq: number }[] }) => r.events.map((e) => e.seq)
    expect(seqs(await s.call('hub.list', { hub: 'h', since_seq: 3, before_seq: 7 }))).toEqual([4, 5, 6])
    expect(seqs(await s.call('hub.list', { hub: 'h', before_seq: 5, order: 'desc', limit: 2 }))).toEqual([4, 3])
    const all = await s.call('hub.list', { hub: 'h', limit: 10 })
    expect(seqs(await s.call('hub.list', { hub: 'h', since_seq: 2, since_event_id: all.events[5]!.id }))).toEqual([7, 8, 9, 10])
  })

  it('hub.artifact recomputes the sha256 and size and reports the patch warnings', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    const [good, bad] = pyWrite(palace, [
      { artifact: { kind: 'patch', content: 'diff --git a/x b/x\n', created_by: 'mac-claude' } },
      { artifact: { kind: 'patch', content: 'diff --git a/y b/y\r\n+z', created_by: 'win-codex' } }
    ])
    expect(await s.call('hub.artifact', { hub: 'h', id: good! })).toMatchObject({
      kind: 'patch',
      sha256_ok: true,
      size_ok: true,
      warnings: [],
      size_bytes: 19
    })
    const r = await s.call('hub.artifact', { hub: 'h', id: bad!, content: true })
    expect(r.warnings).toHaveLength(2)
    expect(r.content).toBe('diff --git a/y b/y\r\n+z')
    const { openDatabase } = await import('../sqlite')
    const db = openDatabase(join(palace, 'logstream.sqlite3'))
    db.prepare('UPDATE artifacts SET sha256 = ? WHERE id = ?').run('0'.repeat(64), good)
    db.close()
    expect(await s.call('hub.artifact', { hub: 'h', id: good! })).toMatchObject({ sha256_ok: false })
    await expect(s.call('hub.artifact', { hub: 'h', id: 'art_x' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('hubs.add is idempotent (create on request), hubs.list/remove', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    await expect(s.call('hubs.add', { palace })).rejects.toThrow(/no hub at .*pass create/)
    const first = await s.call('hubs.add', { palace, name: 'demo', create: true })
    expect(first).toMatchObject({ name: 'demo', palace, exists: true, added: true })
    expect(await s.call('hubs.add', { palace, name: 'other' })).toMatchObject({ name: 'demo', added: false })
    await expect(s.call('hubs.add', { palace: join(tmpDir(), 'p2'), name: 'demo', create: true })).rejects.toThrow(/already exists/)
    expect((await s.call('hubs.list', {})).hubs.map((h) => h.name)).toEqual(['demo'])
    expect(await s.call('hubs.remove', { name: 'demo' })).toEqual({ removed: 'demo' })
  })

  it('hub.append enforces every write rule with the upstream message and writes nothing on error', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    const base = { hub: 'h', type: 'chat.message', stream: 'project/x', room: 'rooms' }
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'Bad Type' }, "type='Bad Type' is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)"],
      [{ type: '' }, 'type must be a non-empty string'],
      [{ stream: '  ' }, 'stream must be a non-empty string'],
      [{ room: 'a\u0001b' }, 'room contains control characters'],
      [{ topic: 'x'.repeat(257) }, 'topic exceeds maximum length of 256 characters'],
      [{ status: 'done' }, "status='done' is not one of: applied, blocked, claimed, failed, open, ready, superseded"],
      [{ body: 'a\u0000b' }, 'body contains null bytes'],
      [{ body: 'x'.repeat(256 * 1024 + 1) }, `body is ${256 * 1024 + 1} bytes; maximum is ${256 * 1024} bytes`],
      [{ metadata: { big: 'x'.repeat(64 * 1024) } }, `metadata exceeds maximum size of ${64 * 1024} bytes`],
      [
        { artifact_ids: ['art_20260101T000000_000000000000'] },
        "artifact_ids references unknown artifact 'art_20260101T000000_000000000000'"
      ]
    ]
    for (const [over, message] of cases) {
      await expect(s.call('hub.append', { ...base, ...over } as never)).rejects.toThrow(message)
    }
    expect((await s.call('hub.list', { hub: 'h' })).count).toBe(0)
    const ok = await s.call('hub.append', { ...base, topic: '', to_agent: ' y ', body: 'hi' })
    expect(ok.event).toMatchObject({ from_agent: 'desk-muster', topic: null, to_agent: 'y', body: 'hi' })
  })

  it('operator writes (append, ack, task, announce) pass hub_check.py; python-written events list correctly', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    const py = pyWrite(palace, [
      { artifact: { kind: 'patch', content: '--- a\n+++ b\n', created_by: 'win-codex' } },
      { artifact: { kind: 'note', content: 'ノート', created_by: 'win-codex' } },
      {
        event: {
          type: 'task.request',
          stream: 'project/muse',
          room: 'delegation',
          from_agent: 'mac-claude',
          to_agent: 'win-codex',
          correlation_id: 'task_fix_11111111',
          status: 'open',
          body: 'Goal:\nFix\n',
          metadata: { z: 1, a: '中' }
        }
      },
      { ack: { target: 2, from_agent: 'win-codex', status: 'claimed' } },
      {
        event: {
          type: 'patch.ready',
          stream: 'project/muse',
          room: 'patches',
          from_agent: 'win-codex',
          to_agent: 'desk-muster',
          correlation_id: 'task_fix_11111111',
          status: 'ready',
          artifact_refs: [1, 0]
        }
      },
      {
        event: {
          type: 'status',
          stream: 'presence',
          room: 'status',
          from_agent: 'home-bot',
          to_agent: '*',
          body: 'watching cursor evt_20260101T000000_0123456789ab'
        }
      },
      { event: { type: 'chat.message', stream: 'project/muse', room: 'rooms', from_agent: 'x', body: 'null to_agent' } }
    ])
    await s.call('hubs.add', { palace, name: 'h' })
    const list = await s.call('hub.list', { hub: 'h' })
    expect(list.events.map((e) => e.id)).toEqual(py.slice(2))
    expect(list.events[0]!.metadata).toEqual({ a: '中', z: 1 })
    expect(list.events[2]!.artifact_ids).toEqual([py[0], py[1]].sort())
    expect(list.events[1]).toMatchObject({ type: 'event.ack', metadata: { ack_of: py[2] }, to_agent: 'mac-claude', status: 'claimed' })
    expect((await s.call('hub.list', { hub: 'h', to_agent: 'desk-muster' })).events.map((e) => e.id)).toEqual([py[4], py[5]])

    const thread = await s.call('hub.thread', { hub: 'h', correlation_id: 'task_fix_11111111' })
    expect(thread).toMatchObject({ state: 'ready', claimed_by: 'win-codex', event_count: 3 })
    const presence = await s.call('hub.presence', { hub: 'h' })
    expect(presence.agents).toMatchObject([{ agent: 'home-bot', cursor: 'evt_20260101T000000_0123456789ab' }])

    await s.call('hub.ack', { hub: 'h', event_id: py[4]!, status: 'applied', body: 'applied, 12 passed' })
    await s.call('hub.taskCreate', {
      hub: 'h',
      project: 'Muse App',
      to_agent: 'win-codex',
      goal: 'Add tests',
      branch: 'main',
      base_commit: 'ABCDEF1',
      done: 'green'
    })
    await s.call('hub.announce', { hub: 'h', cursor: py[6]! })
    await s.call('hub.append', {
      hub: 'h',
      type: 'chat.message',
      stream: 'project/muse',
      room: 'rooms',
      body: 'q"\\\n\u0001 ✅',
      metadata: { n: 1.5, l: [1, 'x'] }
    })
    await expect(s.call('hub.ack', { hub: 'h', event_id: 'evt_nope' })).rejects.toThrow("event 'evt_nope' not found")
    const res = spawnSync('python3', [script('hub_check.py'), palace], { encoding: 'utf8' })
    expect(JSON.parse(res.stdout)).toMatchObject({ ok: true, events: 9, violations: [] })
    expect(res.status).toBe(0)
    const tasks = await s.call('hub.tasks', { hub: 'h' })
    expect(tasks.counts).toMatchObject({ open: 1, applied: 1, total: 2 })
    expect(tasks.open[0]!.request).toMatchObject({ stream: 'project/muse_app', base_commit: 'abcdef1', from_agent: 'desk-muster' })
  })

  it('hub.taskCreate checks the base commit in a registered project repository', async () => {
    const s = await service()
    const repo = join(tmpDir(), 'atlas')
    mkdirSync(join(repo, '.muse'), { recursive: true })
    writeFileSync(join(repo, '.muse', 'ops.md'), '<!-- L0: v1 | x | y -->\n')
    const git = (...a: string[]): string =>
      execFileSync('git', ['-C', repo, ...a], {
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
      })
    git('init', '-q')
    git('add', '.')
    git('commit', '-qm', 'init')
    const sha = git('rev-parse', 'HEAD').trim()
    await s.call('projects.add', { path: repo, name: 'atlas' })
    const palace = join(tmpDir(), 'palace')
    const base = { palace, project: 'atlas', to_agent: 'win-codex', goal: 'g', branch: 'main', done: 'd' }
    const ok = await s.call('hub.taskCreate', { ...base, base_commit: sha.slice(0, 10) })
    expect(ok.verified_in).toBe('atlas')
    await expect(s.call('hub.taskCreate', { ...base, base_commit: 'deadbeef12' })).rejects.toThrow(
      /task base commit deadbeef12 is not a commit in project 'atlas'/
    )
    await expect(s.call('hub.taskCreate', { ...base, base_commit: 'main' })).rejects.toThrow(
      'task base commit must be a hexadecimal Git object id (at least 7 characters), not a branch or tag'
    )
  })

  it('inbox counts events to the operator or *, not its own; markRead moves the cursor; overview states', async () => {
    const s = await service()
    const palace = join(tmpDir(), 'palace')
    const hub = createHub(palace)
    const w = (over: Record<string, unknown>) =>
      appendEvent(hub.db, hub.replicaId, { type: 'chat.message', stream: 's', room: 'r', from_agent: 'a', ...over } as never)
    w({ to_agent: 'desk-muster', from_agent: 'win-codex' })
    w({ to_agent: '*', from_agent: 'desk-muster' })
    w({ to_agent: '*', from_agent: 'mac-claude' })
    w({ to_agent: 'someone-else' })
    w({ type: 'patch.ready', status: 'ready', to_agent: 'desk-muster', from_agent: 'lab-gemini' })
    hub.close()
    await s.call('hubs.add', { palace, name: 'h' })
    const inbox = await s.call('hub.inbox', { hub: 'h' })
    expect(inbox).toMatchObject({ unread: 3, cursor: null })
    expect(inbox.events.map((e) => e.from_agent)).toEqual(['lab-gemini', 'mac-claude', 'win-codex'])
    const read = await s.call('hub.markRead', { hub: 'h', event_id: inbox.events[1]!.id })
    expect(read.unread).toBe(1)
    expect((await s.call('hub.markRead', { hub: 'h' })).unread).toBe(0)
    const { hubs } = await s.call('hub.overview', {})
    const h = hubs.find((x) => x.hub === 'h')!
    expect(h.ok).toBe(true)
    expect(h.patches_waiting).toHaveLength(1)
    // a patch.ready without its artifact is refused by the Patches inbox: it waits on nobody
    expect(h.agents.find((a) => a.agent === 'lab-gemini')).toMatchObject({ state: 'working', needs: null })
    // the message win-codex sent to the operator was read above
    expect(h.agents.find((a) => a.agent === 'win-codex')).toMatchObject({ state: 'working' })
    expect(h.agents.find((a) => a.agent === 'mac-claude')).toMatchObject({ state: 'working' })
    expect(h.agents.map((a) => a.agent)).not.toContain('desk-muster')
  })

  it('the watcher pushes rows written by other connections/processes, and inbox growth', async () => {
    const s = await service(true)
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'live', create: true })
    const seen = new Set<string>()
    const inbox: number[] = []
    s.subscribe((e: PushedEvent) => {
      if (e.name === 'hub.events') for (const ev of e.payload.events) seen.add(ev.id)
      if (e.name === 'hub.inbox') inbox.push(e.payload.unread)
    })
    await new Promise((r) => setTimeout(r, 100))
    const other = createHub(palace)
    // each row is pushed before the next is written (how fast is `npm run bench`'s live-row figure)
    for (let i = 0; i < 20; i++) {
      const e = appendEvent(other.db, other.replicaId, {
        type: 'chat.message',
        stream: 's',
        room: 'r',
        from_agent: 'x',
        to_agent: i % 5 === 0 ? 'desk-muster' : 'y'
      })
      await vi.waitFor(() => expect(seen.has(e.id)).toBe(true), { timeout: 30_000, interval: 5 })
    }
    other.close()
    const [pyId] = pyWrite(palace, [
      { event: { type: 'status', stream: 'presence', room: 'status', from_agent: 'home-bot', to_agent: '*' } },
      { event: { type: 'chat.message', stream: 's', room: 'r', from_agent: 'home-bot', to_agent: '*' } }
    ])
    await vi.waitFor(() => expect(seen.has(pyId!)).toBe(true), { timeout: 30_000, interval: 5 })
    expect(inbox.length).toBeGreaterThanOrEqual(2)
    // four direct messages and the broadcast message; the heartbeat (broadcast status) is never unread
    await vi.waitFor(() => expect(inbox[inbox.length - 1]).toBe(5), { timeout: 30_000 })
  })
})
