/** `muster hubs add --url URL --token-file F`, `hubs list/remove` and hub commands on a hub server (test/hub_server.py). */
import { readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startHubServer, type HubServer } from '../../test/helpers/hub-server'
import { noteAppendArgs, runCliAtHome } from '../../test/helpers/cli'
import { tmpDir } from '../../test/helpers/tmp'

const TOKEN = 'cli-token-5be19a'
const servers: HubServer[] = []
afterEach(async () => {
  while (servers.length) await servers.pop()!.stop()
})

const run = runCliAtHome

describe('muster hubs with a hub server', () => {
  it('adds, lists, reads, writes and removes a remote hub; the token is copied 0600 and never printed', async () => {
    const home = tmpDir()
    const server = await startHubServer({ palace: join(tmpDir(), 'palace'), token: TOKEN })
    servers.push(server)
    writeFileSync(join(home, 'tok'), TOKEN + '\n')

    const added = await run(home, 'hubs', 'add', '--url', server.url, '--token-file', 'tok', '--name', 'lab')
    expect(added).toMatchObject({ code: 0, out: `added lab ${server.url}\n`, err: '' })
    const stored = join(home, 'hub-tokens', readdirSync(join(home, 'hub-tokens'))[0]!)
    expect(statSync(stored).mode & 0o777).toBe(0o600)

    const appended = await run(home, ...noteAppendArgs('lab', 'mac-claude', '--body', 'hello', '--json'))
    expect(appended.code).toBe(0)
    const event = JSON.parse(appended.out) as { id: string; seq: number }
    const listed = await run(home, 'events', 'list', '--hub', server.url, '--from-agent', 'mac-claude', '--json')
    expect(JSON.parse(listed.out)).toMatchObject({ count: 1, events: [{ id: event.id, body: 'hello', seq: 1 }] })
    const acked = await run(home, 'events', 'ack', event.id, '--hub', 'lab', '--from-agent', 'win-codex', '--status', 'claimed', '--json')
    expect(JSON.parse(acked.out)).toMatchObject({ type: 'event.ack', to_agent: 'mac-claude', metadata: { ack_of: event.id } })

    const table = await run(home, 'hubs', 'list')
    expect(table.out).toMatch(new RegExp(`^lab +remote +ok +${server.url.replace(/[.:/]/g, '\\$&')}$`, 'm'))
    await server.stop()
    const offline = await run(home, 'hubs', 'list', '--json')
    expect(JSON.parse(offline.out).hubs[0]).toMatchObject({
      name: 'lab',
      online: false,
      offline_reason: `cannot reach hub server ${server.url}: connection refused`
    })
    expect((await run(home, 'hubs', 'list')).out).toContain(`OFFLINE: cannot reach hub server ${server.url}: connection refused`)
    for (const r of [added, appended, listed, acked, table, offline]) expect(r.out + r.err).not.toContain(TOKEN)

    expect(await run(home, 'hubs', 'remove', 'lab')).toMatchObject({ code: 0, out: 'removed lab\n' })
    expect(readdirSync(join(home, 'hub-tokens'))).toEqual([])
  })

  it('usage errors: palace and --url together, --token-file without --url, a refused token', async () => {
    const home = tmpDir()
    const server = await startHubServer({ palace: join(tmpDir(), 'palace'), token: TOKEN })
    servers.push(server)
    writeFileSync(join(home, 'bad'), 'nope-nope\n')
    expect(await run(home, 'hubs', 'add', join(home, 'p'), '--url', server.url)).toMatchObject({
      code: 1,
      err: 'muster: give a palace folder or --url URL (not both)\n'
    })
    expect(await run(home, 'hubs', 'add', join(home, 'p'), '--token-file', 'bad')).toMatchObject({
      code: 1,
      err: 'muster: --token-file goes with --url (a hub server)\n'
    })
    const refused = await run(home, 'hubs', 'add', '--url', server.url, '--token-file', 'bad', '--json')
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.out).error).toMatch(/refused the token \(HTTP 401\).*\(nothing registered\)/)
    expect(refused.out).not.toContain('nope-nope')
    // The CLI reads the token file itself (the API takes no path): a bad file is refused before
    // the service starts, and ~/ is the user's home.
    expect(await run(home, 'hubs', 'add', '--url', server.url, '--token-file', 'missing')).toMatchObject({
      code: 1,
      err: `muster: cannot read token file ${join(home, 'missing')}: ENOENT\n`
    })
    writeFileSync(join(home, 'good'), TOKEN + '\n')
    expect(await run(home, 'hubs', 'add', '--url', server.url, '--token-file', '~/good', '--name', 'lab')).toMatchObject({
      code: 0,
      out: `added lab ${server.url}\n`
    })
  })
})
