/**
 * The hub server stand-in (test/hub_server.py) against what upstream's server does (the files and
 * commits its header names): no response cap (26 large events come back whole, 26 of 26, through
 * the raw /mcp call, Muster's McpClient and `muster events list --hub`), the RFC 004 /sync routes
 * behind the bearer token, and numbers in metadata kept as written.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { McpClient } from '../src/core/hub/remote-mcp'
import { runCli } from '../src/cli/index'
import { startHubServer, type HubServer } from './helpers/hub-server'
import { tmpDir } from './helpers/tmp'

const TOKEN = 'tok-26of26'
const writer = fileURLToPath(new URL('./hub_writer.py', import.meta.url))
const servers: HubServer[] = []
afterEach(async () => {
  while (servers.length) await servers.pop()!.stop()
})

/** A palace holding `n` events whose bodies together are far over 50,000 characters. */
function palaceWithLargeEvents(n: number): string {
  const palace = join(tmpDir(), 'palace')
  const script = join(tmpDir(), 'script.json')
  const events = Array.from({ length: n }, (_, i) => ({
    event: {
      type: 'status',
      stream: 'project/fleet',
      room: 'status',
      from_agent: `agent-${i}`,
      to_agent: '*',
      body: `fleet status ${i}: ` + 'x'.repeat(4000)
    }
  }))
  writeFileSync(script, JSON.stringify(events))
  execFileSync('python3', [writer, palace, script], { encoding: 'utf8' })
  return palace
}

async function rpc(server: HubServer, body: unknown, token: string | null = TOKEN): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${server.url}${typeof body === 'string' ? body : '/mcp'}`, {
    method: typeof body === 'string' ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(typeof body === 'string' ? {} : { body: JSON.stringify(body) })
  })
  const text = await res.text()
  return { status: res.status, json: (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as unknown) : text }
}

describe('test/hub_server.py follows upstream', () => {
  it('returns 26 of 26 large events: no 50,000-character cap (raw /mcp, McpClient, muster events list --hub)', async () => {
    const palace = palaceWithLargeEvents(26)
    const server = await startHubServer({ palace, token: TOKEN })
    servers.push(server)
    const raw = await rpc(server, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'mempalace_event_list', arguments: { limit: 50 } }
    })
    const text = (raw.json as { result: { content: { text: string }[] } }).result.content[0]!.text
    expect(text.length).toBeGreaterThan(100_000)
    const result = JSON.parse(text) as { events: unknown[]; count: number; truncated?: boolean }
    expect([result.events.length, result.count, result.truncated]).toEqual([26, 26, undefined])
    // indent=2, as upstream's handle_request serialises tool results
    expect(text.startsWith('{\n  "events": [\n    {\n      "id": "evt_')).toBe(true)

    const client = new McpClient({ url: server.url, token: TOKEN })
    expect((await client.callTool<{ count: number }>('mempalace_event_list', { limit: 50 })).count).toBe(26)

    const home = tmpDir()
    const tokenFile = join(home, 'token')
    writeFileSync(tokenFile, TOKEN)
    let out = ''
    const io = { stdout: (t: string) => (out += t), stderr: () => undefined, env: { HOME: home }, cwd: home }
    expect(await runCli(['hubs', 'add', '--url', server.url, '--token-file', tokenFile, '--name', 'fleet', '--home', home], io)).toBe(0)
    out = ''
    expect(await runCli(['events', 'list', '--hub', 'fleet', '--json', '--home', home], io)).toBe(0)
    expect((JSON.parse(out) as { count: number }).count).toBe(26)
  })

  it('serves the /sync routes behind the bearer token, as upstream http.py does', async () => {
    const palace = palaceWithLargeEvents(3)
    const server = await startHubServer({ palace, token: TOKEN })
    servers.push(server)
    expect((await rpc(server, '/sync/version_vector', null)).status).toBe(401)
    const vv = (await rpc(server, '/sync/version_vector')).json as { replica_id: string; version_vector: Record<string, number> }
    expect(vv.replica_id).toMatch(/^rep_/)
    expect(vv.version_vector).toEqual({ [vv.replica_id]: 3 })
    const ops = (await rpc(server, `/sync/ops?origin=${vv.replica_id}&after=1&limit=10`)).json as {
      origin: string
      count: number
      events: { origin_seq: number }[]
    }
    expect([ops.origin, ops.count, ops.events.map((e) => e.origin_seq)]).toEqual([vv.replica_id, 2, [2, 3]])
    expect(await rpc(server, '/sync/artifact?id=art_nope')).toEqual({ status: 404, json: { error: "artifact 'art_nope' not found" } })
    expect((await rpc(server, '/sync/nothing')).status).toBe(404)
  })

  it('keeps metadata numbers as written (ints past 2^53, 1.0, -0.0) in its answers', async () => {
    const server = await startHubServer({ palace: join(tmpDir(), 'palace'), token: TOKEN })
    servers.push(server)
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body:
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mempalace_event_append","arguments":' +
        '{"type":"note","stream":"s","room":"r","from_agent":"a","metadata":{"big":12345678901234567890,"f":1.0,"z":-0.0}}}}'
    })
    const text = ((await res.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text
    expect(text).toContain('"metadata": {\n      "big": 12345678901234567890,\n      "f": 1.0,\n      "z": -0.0\n    }')
  })
})
