/**
 * Remote hubs through the whole service (contract validation, handlers, hub service, live pushes)
 * against test/hub_server.py: registering with a token (never a token file path over the API), the
 * same reads and writes as a local hub, offline and back, removing.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startHubServer, type HubServer } from '../../../test/helpers/hub-server'
import { tmpDir } from '../../../test/helpers/tmp'
import type { PushedEvent } from '../../shared/api'
import { createService } from '../root'
import type { MusterService } from '../service-types'

const TOKEN = 'remote-tok-8d2f61'
const services: MusterService[] = []
const servers: HubServer[] = []
afterEach(async () => {
  while (services.length) await services.pop()!.close()
  while (servers.length) await servers.pop()!.stop()
})

async function setup(watch = false) {
  const home = tmpDir()
  const s = await createService({ home, transport: 'http', watch })
  services.push(s)
  const palace = join(tmpDir(), 'palace')
  const server = await startHubServer({ palace, token: TOKEN, pingSeconds: 1 })
  servers.push(server)
  return { s, home, palace, server }
}

/** A TCP port nothing listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** Writes straight into the server's palace, like an agent on the server's machine. */
function pyWrite(palace: string, steps: unknown[]): void {
  const file = join(tmpDir(), 'script.json')
  writeFileSync(file, JSON.stringify(steps))
  execFileSync('python3', [fileURLToPath(new URL('../../../test/hub_writer.py', import.meta.url)), palace, file])
}

const until = async (cond: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> => {
  const t = Date.now()
  while (!(await cond())) {
    if (Date.now() - t > ms) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('remote hubs through the service', () => {
  it('hubs.add --url with a token: the token is copied 0600 and never returned; list/remove handle remote hubs', async () => {
    const { s, home, server } = await setup()
    const added = await s.call('hubs.add', { url: `${server.url}/`, token: TOKEN, name: 'lab' })
    expect(added).toMatchObject({
      name: 'lab',
      kind: 'remote',
      palace: server.url,
      file: server.url,
      added: true,
      online: true,
      offline_reason: null,
      read_only: false
    })
    const tokens = readdirSync(join(home, 'hub-tokens'))
    expect(tokens).toHaveLength(1)
    const stored = join(home, 'hub-tokens', tokens[0]!)
    expect(statSync(stored).mode & 0o777).toBe(0o600)
    expect(readFileSync(stored, 'utf8').trim()).toBe(TOKEN)
    const listed = await s.call('hubs.list', {})
    expect(listed.hubs).toEqual([expect.objectContaining({ name: 'lab', kind: 'remote', online: true })])
    expect(JSON.stringify([added, listed])).not.toContain(TOKEN)
    expect(readFileSync(join(home, 'muster.sqlite3')).includes(Buffer.from(TOKEN))).toBe(false) // only the file path is in the DB

    expect(await s.call('hubs.add', { url: server.url, token: TOKEN })).toMatchObject({ name: 'lab', added: false })
    await s.call('hub.append', { hub: 'lab', type: 'note', stream: 's', room: 'r', body: 'x' })
    const mirrors = join(home, 'hub-mirrors')
    expect(readdirSync(mirrors)).toHaveLength(1)
    expect(await s.call('hubs.remove', { name: 'lab' })).toEqual({ removed: 'lab' })
    expect(existsSync(stored)).toBe(false)
    expect(readdirSync(mirrors)).toEqual([])
    expect((await s.call('hubs.list', {})).hubs).toEqual([])
  })

  it('refuses a wrong token, an unreachable URL and bad input, registering nothing', async () => {
    const { s, home, server } = await setup()
    await expect(s.call('hubs.add', { url: server.url, token: 'not-the-token-42' })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/refused the token \(HTTP 401\).*\(nothing registered\)/)
    })
    const closed = `http://127.0.0.1:${await freePort()}`
    await expect(s.call('hubs.add', { url: closed, token: TOKEN })).rejects.toMatchObject({
      code: 'conflict',
      message: `cannot reach hub server ${closed}: connection refused (nothing registered)`
    })
    await expect(s.call('hubs.add', { url: server.url, palace: '/tmp/x' })).rejects.toThrow(
      'give either palace (a local hub) or url (a hub server)'
    )
    await expect(s.call('hubs.add', { palace: '/tmp/x', token: TOKEN })).rejects.toThrow('token is for a hub server (url)')
    await expect(s.call('hubs.add', { url: 'ftp://h', token: TOKEN })).rejects.toThrow('only http and https')
    await expect(s.call('hubs.add', { url: server.url, token: 'two words' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'the token does not hold a bearer token (one line of visible ASCII characters)'
    })
    expect((await s.call('hubs.list', {})).hubs).toEqual([])
    expect(existsSync(join(home, 'hub-tokens')) ? readdirSync(join(home, 'hub-tokens')) : []).toEqual([])
    expect(await s.call('hubs.add', { url: server.url, token: ` ${TOKEN} ` })).toMatchObject({
      name: '127.0.0.1-' + server.port,
      online: true
    })
  })

  it('never takes a token file path: an API caller cannot make Muster read a file and send it to a URL', async () => {
    const { s, home } = await setup()
    // A one-line file the caller must not be able to exfiltrate, and a "hub server" that records
    // every Authorization header it is sent.
    const secret = join(tmpDir(), 'secret')
    writeFileSync(secret, 'ssh-private-looking-line-9f3a\n')
    const seen: string[] = []
    const spy = createHttpServer((req, res) => {
      seen.push(req.headers.authorization ?? '(none)')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(spy.address() as { port: number }).port}`
      for (const input of [
        { url, token_file: secret },
        { url, token_file: secret, token: 'x' },
        { url, token_file: '~/secret' }
      ]) {
        await expect(s.call('hubs.add', input)).rejects.toMatchObject({
          code: 'invalid_input',
          message: expect.stringContaining('token_file')
        })
      }
      expect(seen).toEqual([])
      expect((await s.call('hubs.list', {})).hubs).toEqual([])
      expect(existsSync(join(home, 'hub-tokens'))).toBe(false)
    } finally {
      await new Promise((resolve) => spy.close(resolve))
    }
  })

  it('overview, timeline reads, acks, replies, tasks and inbox work on a remote hub as on a local one', async () => {
    const { s, palace, server } = await setup()
    await s.call('settings.update', { operatorId: 'desk-op' })
    await s.call('hubs.add', { url: server.url, token: TOKEN, name: 'lab' })
    const task = await s.call('hub.taskCreate', {
      hub: 'lab',
      project: 'muse',
      to_agent: 'win-codex',
      goal: 'Fix it',
      branch: 'main',
      base_commit: 'abcdef1',
      done: 'green'
    })
    expect(task.task).toMatchObject({ from_agent: 'desk-op', correlation_id: expect.stringMatching(/^task_fix_it_[0-9a-f]{8}$/) })
    const reply = await s.call('hub.append', {
      hub: 'lab',
      type: 'task.reply',
      stream: 'project/muse',
      room: 'delegation',
      to_agent: 'win-codex',
      correlation_id: task.task.correlation_id,
      body: 'more detail'
    })
    const ack = await s.call('hub.ack', { hub: 'lab', event_id: reply.event.id, status: 'claimed' })
    expect(ack.event).toMatchObject({ type: 'event.ack', from_agent: 'desk-op', to_agent: 'desk-op', metadata: { ack_of: reply.event.id } })
    const thread = await s.call('hub.thread', { hub: 'lab', correlation_id: task.task.correlation_id! })
    expect(thread.events.map((e) => e.id)).toEqual([task.task.id, reply.event.id, ack.event.id])
    const page = await s.call('hub.list', { hub: 'lab', order: 'desc', limit: 2, count: true })
    expect(page).toMatchObject({ hub: 'lab', palace: server.url, count: 2, has_more: true, total: 3 })
    expect((await s.call('hub.list', { palace: server.url, since_seq: 2 })).events.map((e) => e.seq)).toEqual([3])
    expect((await s.call('hub.tasks', { hub: 'lab' })).counts).toMatchObject({ claimed: 1, total: 1 })
    const ov = await s.call('hub.overview', {})
    expect(ov.hubs.find((h) => h.hub === 'lab')).toMatchObject({ ok: true, palace: server.url, tasks: { claimed: 1 } })
    expect((await s.call('hub.inbox', { hub: 'lab' })).unread).toBe(0) // the self-ack is not inbox material
    pyWrite(palace, [
      {
        event: {
          type: 'task.reply',
          stream: 'project/muse',
          room: 'delegation',
          from_agent: 'win-codex',
          to_agent: 'desk-op',
          body: 'done?'
        }
      }
    ])
    await until(async () => (await s.call('hub.inbox', { hub: 'lab' })).unread === 1)
    expect(await s.call('hub.markRead', { hub: 'lab' })).toMatchObject({ unread: 0, cursor: { last_seq: 4 } })
  })

  it('pushes remote rows as hub.events, and hub.status when the server stops and comes back', async () => {
    const { s, server } = await setup(true)
    const pushed: PushedEvent[] = []
    s.subscribe((e) => pushed.push(e))
    await s.call('hubs.add', { url: server.url, token: TOKEN, name: 'lab' })
    const statuses = () => pushed.flatMap((e) => (e.name === 'hub.status' && e.payload.hub === 'lab' ? [e.payload] : []))
    await until(() => statuses().at(-1)?.online === true)
    await s.call('hub.append', { palace: server.url, type: 'note', stream: 's', room: 'r', body: 'one' })
    await until(() =>
      pushed.some((e) => e.name === 'hub.events' && e.payload.palace === server.url && e.payload.events.some((x) => x.body === 'one'))
    )
    await server.stop()
    await until(() => statuses().at(-1)?.online === false)
    expect(statuses().at(-1)).toMatchObject({ palace: server.url, offline_reason: expect.stringContaining(server.url) })
    expect((await s.call('hubs.list', {})).hubs[0]).toMatchObject({ online: false, offline_reason: expect.stringContaining(server.url) })
    await server.restart()
    await until(() => statuses().at(-1)?.online === true)
  }, 240_000)
})
