/**
 * RemoteHub against test/hub_server.py (the project's stand-in for `mempalace serve`, on a real
 * logstream file): every method, upstream's error shapes, 401, 503 + Retry-After, read-only,
 * an older hub's -32602 for `writer`, pings, and the live stream resuming without gap or duplicate.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startHubServer, type HubServer, type HubServerOptions } from '../../../../test/helpers/hub-server'
import { tmpDir } from '../../../../test/helpers/tmp'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { EventType, Room, Status } from '../../../shared/contract/hub-vocabulary'
import type { TailHealth } from '../hub-port'
import { McpClient } from './remote-mcp'
import { RemoteHub } from './remote-hub'

const TOKEN = 'tok-3f9a1c2e7b'
const script = (name: string): string => fileURLToPath(new URL(`../../../../test/${name}`, import.meta.url))
const hubCheck = (palace: string) =>
  JSON.parse(spawnSync('python3', [script('hub_check.py'), palace], { encoding: 'utf8' }).stdout) as { ok: boolean; events: number }
/** Appends events straight into a palace file the way another MemPalace writer would (server up or down). */
function writeDirect(palace: string, events: Record<string, unknown>[]): string[] {
  const file = join(tmpDir(), 'script.json')
  writeFileSync(file, JSON.stringify(events.map((event) => ({ event }))))
  return JSON.parse(execFileSync('python3', [script('hub_writer.py'), palace, file], { encoding: 'utf8' })) as string[]
}

const servers: HubServer[] = []
const hubs: RemoteHub[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  while (hubs.length) await hubs.pop()!.close()
  while (servers.length) await servers.pop()!.stop()
})

async function serve(o: Partial<HubServerOptions> = {}): Promise<{ server: HubServer; palace: string }> {
  const palace = o.palace ?? join(tmpDir(), 'palace')
  const server = await startHubServer({ token: TOKEN, ...o, palace })
  servers.push(server)
  return { server, palace }
}

function remote(url: string, token: string | null = TOKEN, home = tmpDir()): RemoteHub {
  const hub = new RemoteHub({
    url,
    token,
    home,
    sync: { retryMinMs: 50, retryMaxMs: 300, idleTimeoutMs: 5_000, emptyPollMs: 1_000 },
    readyTimeoutMs: 8_000
  })
  hubs.push(hub)
  return hub
}

const until = async (cond: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> => {
  const t = Date.now()
  while (!(await cond())) {
    if (Date.now() - t > ms) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}

const note = (from: string, body: string, extra: Record<string, unknown> = {}) => ({
  type: 'note',
  stream: 'project/muse',
  room: Room.status,
  from_agent: from,
  body,
  ...extra
})

describe('RemoteHub (a MemPalace hub server over /mcp and /logstream/stream)', () => {
  it('writes through the tools, reads the mirror like a local hub; the server file passes hub_check.py', async () => {
    const { server, palace } = await serve()
    const hub = remote(server.url)
    expect(await hub.status()).toEqual({ exists: true, online: true, offline_reason: null, read_only: false, read_only_reason: null })

    const task = await hub.createTask({
      project: 'Muse',
      from_agent: 'op',
      to_agent: 'win-codex',
      goal: 'Fix ranking',
      branch: 'fix',
      base_commit: 'ABCDEF1',
      done: 'tests pass'
    })
    expect(task.handoff).toBe(
      `Open MemPalace task ${task.task.correlation_id} as win-codex. Claim it, follow its exact definition of done, and deliver through the logstream.`
    )
    expect(task.task).toMatchObject({
      type: EventType.taskRequest,
      stream: 'project/muse',
      room: Room.delegation,
      status: Status.open,
      base_commit: 'abcdef1'
    })
    const claim = await hub.ack({ event_id: task.task.id, from_agent: 'win-codex', status: Status.claimed, body: 'on it' })
    expect(claim).toMatchObject({
      type: EventType.ack,
      to_agent: 'op',
      correlation_id: task.task.correlation_id,
      metadata: { ack_of: task.task.id }
    })
    const patch = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b'
    const sub = await hub.submitPatch({
      content: patch,
      from_agent: 'win-codex',
      stream: 'project/muse',
      to_agent: 'op',
      correlation_id: task.task.correlation_id
    })
    expect(sub.artifact.warnings).toEqual([
      expect.stringMatching(/^patch content does not end with a trailing newline; git apply will reject the final hunk as corrupt — store/)
    ])
    expect(sub.event).toMatchObject({ type: EventType.patchReady, status: Status.ready, artifact_ids: [sub.artifact.id] })
    const art = await hub.putArtifact({ kind: 'note', content: 'ノート\r\n', created_by: 'op', metadata: { k: 1 } })
    expect(await hub.getArtifact(art.id)).toMatchObject({
      content: 'ノート\r\n',
      sha256: art.sha256,
      size_bytes: art.size_bytes,
      metadata: { k: 1 }
    })
    expect(await hub.getArtifact('art_20260101T000000_000000000000')).toBeNull()
    const hello = await hub.announce({ from_agent: 'win-codex' })
    const dm = await hub.append(note('win-codex', 'x'.repeat(300), { to_agent: 'op' }))

    // Reads come from the mirror, which each write waited for: same answers as a local hub.
    expect(await hub.get(dm.id)).toEqual(dm)
    expect(await hub.tip()).toEqual({ id: dm.id, seq: dm.seq })
    expect(await hub.count({ from_agent: ['win-codex', 'op'] })).toBe(5)
    const page = await hub.list({ order: 'desc', limit: 2, preview: true })
    expect(page.events.map((e) => e.id)).toEqual([dm.id, hello.id])
    expect(page.events[0]).toMatchObject({ body_truncated: true, body_length: 300 })
    expect(page.has_more).toBe(true)
    expect((await hub.list({ text: 'on it' })).events.map((e) => e.id)).toEqual([claim.id])
    const thread = await hub.thread({ correlation_id: task.task.correlation_id! })
    expect(thread.fold).toMatchObject({ state: Status.ready, claimed_by: 'win-codex' })
    expect(thread.events.map((e) => e.id)).toEqual([task.task.id, claim.id, sub.event.id])
    const tasks = await hub.tasks({})
    expect(tasks.counts).toMatchObject({ ready: 1, total: 1 })
    expect(tasks.patches_waiting.map((p) => p.event.id)).toEqual([sub.event.id])
    expect((await hub.presence({})).map((p) => p.agent)).toEqual(['win-codex'])
    expect(await hub.unread('op', null)).toBe(3) // win-codex's presence (broadcast status) is never unread
    expect((await hub.inbox({ agent: 'op', after: { seq: claim.seq, id: claim.id }, limit: 10 })).unread).toBe(2)
    expect((await hub.latestInbox('op', null))!.id).toBe(dm.id)
    const ov = await hub.overview({ operator: 'op', inbox_after: null })
    expect(ov.agents.find((a) => a.agent === 'win-codex')).toMatchObject({ state: 'needs-me' })
    expect(hubCheck(palace)).toMatchObject({ ok: true, events: 5 })
  })

  it('passes upstream refusals on as clear errors and writes nothing', async () => {
    const { server, palace } = await serve()
    const hub = remote(server.url)
    await expect(hub.append({ type: 'Bad Type', stream: 's', room: 'r', from_agent: 'a' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: "type='Bad Type' is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)"
    })
    await expect(hub.ack({ event_id: 'evt_20260101T000000_000000000000', from_agent: 'a' })).rejects.toMatchObject({
      code: 'not_found',
      message: "event 'evt_20260101T000000_000000000000' not found"
    })
    await expect(
      hub.createTask({ project: 'p', from_agent: 'a', to_agent: 'b', goal: 'g', branch: 'main', base_commit: 'main', done: 'd' })
    ).rejects.toThrow('task base commit must be a hexadecimal Git object id (at least 7 characters), not a branch or tag')
    await expect(hub.append({ ...note('a', 'x'), artifact_ids: ['art_missing'] })).rejects.toThrow(
      "artifact_ids references unknown artifact 'art_missing'"
    )
    await expect(hub.create()).rejects.toMatchObject({ code: 'invalid_input' })
    expect(hubCheck(palace)).toMatchObject({ ok: true, events: 0 })
    // JSON-RPC errors keep their code: an unknown argument is -32602 with upstream's message.
    await expect(new McpClient({ url: server.url, token: TOKEN }).callTool('mempalace_event_list', { bogus: 1 })).rejects.toMatchObject({
      code: 'invalid_input',
      detail: { rpcCode: -32602 },
      message: expect.stringContaining("Unknown parameter 'bogus' for tool mempalace_event_list")
    })
  })

  it('a refused token (401) shows the hub offline with the reason, never the token', async () => {
    const { server } = await serve()
    const hub = remote(server.url, 'wrong-token-123')
    const status = await hub.status()
    expect(status).toMatchObject({ online: false, offline_reason: expect.stringContaining('refused the token (HTTP 401)') })
    expect(JSON.stringify(status)).not.toContain('wrong-token-123')
    await expect(hub.list({})).rejects.toMatchObject({ code: 'forbidden' })
    const health: TailHealth[] = []
    const sub = hub.subscribe({ from: 'tip' }, { events: () => undefined, health: (h) => health.push(h) })
    await until(() => health.some((h) => /HTTP 401/.test(h.offline_reason ?? '')))
    sub.close()
    expect(JSON.stringify(health)).not.toContain('wrong-token-123')
  })

  it('503 + Retry-After when the server has no stream slot: offline with the reason, retried after the wait', async () => {
    const { server, palace } = await serve({ maxClients: 0 })
    writeDirect(palace, [note('a', 'one')])
    const hub = remote(server.url)
    const health: TailHealth[] = []
    const fetches: number[] = []
    const real = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (String(input).endsWith('/logstream/stream')) fetches.push(Date.now())
      return real(input, init)
    })
    const sub = hub.subscribe({ from: 'start' }, { events: () => undefined, health: (h) => health.push(h) })
    await until(() => health.some((h) => /HTTP 503: too many live-stream clients, retry after 5 s/.test(h.offline_reason ?? '')))
    await until(() => fetches.length >= 2, 9_000)
    expect(fetches[1]! - fetches[0]!).toBeGreaterThanOrEqual(4_900) // Retry-After: 5, not the 50 ms backoff
    sub.close()
  }, 240_000)

  it('a --read-only server: status says so, writes are refused before any call, reads work', async () => {
    const { server, palace } = await serve({ readOnly: true })
    writeDirect(palace, [note('bob', 'hello')])
    const hub = remote(server.url)
    expect(await hub.status()).toMatchObject({ online: true, read_only: true, read_only_reason: expect.stringContaining('runs read-only') })
    const calls = vi.spyOn(globalThis, 'fetch')
    await expect(hub.append(note('op', 'x'))).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('is read-only') })
    expect(calls.mock.calls.filter(([, init]) => String(init?.body ?? '').includes('mempalace_event_append'))).toEqual([])
    expect((await hub.list({})).events.map((e) => e.body)).toEqual(['hello'])
    // The server refuses too (-32003), should a write reach it.
    await expect(
      new McpClient({ url: server.url, token: TOKEN }).callTool('mempalace_event_append', note('op', 'x'))
    ).rejects.toMatchObject({
      code: 'forbidden',
      detail: { rpcCode: -32003 }
    })
    expect(hubCheck(palace)).toMatchObject({ events: 1 })
  })

  it('an older hub (no `writer` in its tools): authors are filtered with from_agent from the first call on', async () => {
    const { server, palace } = await serve({ legacy: true })
    writeDirect(palace, [note('alice', 'a1'), note('bob', 'b1'), note('alice', 'a2')])
    const hub = remote(server.url)
    const bodies = vi.spyOn(globalThis, 'fetch')
    const sent = (): string[] =>
      bodies.mock.calls.map(([, init]) => String(init?.body ?? '')).filter((b) => b.includes('mempalace_event_list'))
    const first = await hub.listFromServer({ from_agent: 'alice' })
    expect(first.events.map((e) => e.body)).toEqual(['a1', 'a2'])
    // the connection's probe (tools/list) answered first: no call sends `writer` to be refused
    expect(sent().map((b) => (JSON.parse(b) as { params: { arguments: object } }).params.arguments)).toEqual([
      { from_agent: 'alice', order: 'asc', limit: 51 }
    ])
    const again = await hub.listFromServer({ from_agent: 'bob', order: 'desc' })
    expect(again.events.map((e) => e.body)).toEqual(['b1'])
    expect(sent()).toHaveLength(2)
    const waited = await hub.wait({ from_agent: 'bob', timeout_ms: 1000 })
    expect(waited.events.map((e) => e.body)).toEqual(['b1'])

    // A newer hub filters authors with `writer` (its from_agent is the caller's identity).
    const newer = await serve()
    writeDirect(newer.palace, [note('alice', 'n1'), note('bob', 'n2')])
    expect((await remote(newer.server.url).listFromServer({ from_agent: 'bob' })).events.map((e) => e.body)).toEqual(['n2'])
  })

  it('the live stream resumes after a server restart with no gap and no duplicate; pings keep it open', async () => {
    const { server, palace } = await serve({ pingSeconds: 0.3 })
    writeDirect(palace, [note('a', 'before')])
    // A 1 s watchdog: only the 0.3 s pings keep an idle stream from being declared dead.
    const hub = new RemoteHub({
      url: server.url,
      token: TOKEN,
      home: tmpDir(),
      sync: { retryMinMs: 50, retryMaxMs: 300, idleTimeoutMs: 1_000 }
    })
    hubs.push(hub)
    const seen: HubEvent[] = []
    const health: TailHealth[] = []
    const sub = hub.subscribe({ from: 'tip' }, { events: (ev) => seen.push(...ev), health: (h) => health.push(h) })
    await until(() => health.at(-1)?.online === true)
    const a = await hub.append(note('op', 'A'))
    await until(() => seen.length === 1)
    const settled = health.length
    await new Promise((r) => setTimeout(r, 2_500)) // idle for 2.5 watchdog periods
    expect(health.slice(settled)).toEqual([])

    await server.stop()
    await until(() => health.at(-1)?.online === false)
    expect(health.at(-1)!.offline_reason).toContain(server.url)
    const down = writeDirect(palace, [note('b', 'B1'), note('b', 'B2')]) // written while the server is down
    await server.restart()
    const c = await hub.append(note('op', 'C'))
    await until(() => seen.length >= 4)
    await new Promise((r) => setTimeout(r, 800))
    expect(seen.map((e) => e.id)).toEqual([a.id, ...down, c.id])
    expect(seen.map((e) => e.seq)).toEqual([2, 3, 4, 5])
    expect(health.at(-1)).toEqual({ online: true, offline_reason: null })
    sub.close()
  }, 240_000)

  it('a frozen server (no bytes, no pings) is detected by the watchdog and the hub resumes when it wakes', async () => {
    const { server, palace } = await serve({ pingSeconds: 0.2 })
    writeDirect(palace, [note('a', 'one')])
    const hub = new RemoteHub({
      url: server.url,
      token: TOKEN,
      home: tmpDir(),
      sync: { retryMinMs: 50, retryMaxMs: 200, idleTimeoutMs: 1_000 }
    })
    hubs.push(hub)
    const health: TailHealth[] = []
    const seen: HubEvent[] = []
    const sub = hub.subscribe({ from: 'start' }, { events: (ev) => seen.push(...ev), health: (h) => health.push(h) })
    await until(() => health.at(-1)?.online === true)
    server.signal('SIGSTOP')
    try {
      await until(() => /went silent|did not answer|no answer/.test(health.at(-1)?.offline_reason ?? ''), 6_000)
    } finally {
      server.signal('SIGCONT')
    }
    await until(() => health.at(-1)?.online === true)
    const e = await hub.append(note('op', 'after'))
    await until(() => seen.some((x) => x.id === e.id))
    sub.close()
  }, 240_000)

  it('an empty hub is followed from its first event; another hub at the same URL resets the mirror', async () => {
    const { server } = await serve()
    const hub = remote(server.url)
    const seen: HubEvent[] = []
    const sub = hub.subscribe({ from: 'tip' }, { events: (ev) => seen.push(...ev) })
    await until(async () => (await hub.status()).online)
    expect(await hub.tip()).toBeNull()
    const first = await hub.append(note('op', 'first'))
    await until(() => seen.length === 1)
    expect(seen[0]!.id).toBe(first.id)

    const other = join(tmpDir(), 'other')
    writeDirect(other, [note('z', 'z1'), note('z', 'z2')])
    await server.restart(other)
    await until(async () => (await hub.list({})).events.map((e) => e.body).join() === 'z1,z2')
    sub.close()
  }, 240_000)
})
