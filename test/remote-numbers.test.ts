/**
 * Numbers exact end to end through a remote hub (test/hub_server.py, the stand-in for `mempalace
 * serve`): an int past 2^53, `1.0` and `-0.0` in metadata are stored by the server as written,
 * come back through the tool answer (McpClient, `remote-json.ts`), the live stream into the mirror
 * (`events list --hub`) and `artifact get`, byte for byte; bodies with number-like text too.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { McpClient } from '../src/core/hub/remote/remote-mcp'
import { parseHubJson } from '../src/core/hub/remote/remote-json'
import { noteAppendArgs, runCliAtHome, type CliRun } from './helpers/cli'
import { type HubServer } from './helpers/hub-server'
import { registerHubServer } from './helpers/hub-server-cli'
import { tmpDir } from './helpers/tmp'

const TOKEN = 'tok-numbers'
const META = '{"big": 12345678901234567890, "f": 1.0, "neg": -98765432109876543210, "z": -0.0}'
const BODY = 'numbers in a body stay text: 12345678901234567890 1.0 -0.0'
const servers: HubServer[] = []
afterEach(async () => {
  while (servers.length) await servers.pop()!.stop()
})

async function registered(): Promise<{ home: string; palace: string; run: (...a: string[]) => Promise<CliRun> }> {
  const home = tmpDir()
  const server = await registerHubServer(home, { token: TOKEN })
  servers.push(server)
  return { home, palace: server.palace, run: (...args) => runCliAtHome(home, ...args) }
}

/** What the server's palace stored, read by Python's sqlite3 (no JavaScript number in between). */
function storedMetadata(palace: string): string[] {
  const py =
    'import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); print(json.dumps([r[0] for r in c.execute("select metadata_json from events order by rowid")]))'
  return JSON.parse(execFileSync('python3', ['-c', py, join(palace, 'logstream.sqlite3')], { encoding: 'utf8' })) as string[]
}

describe('exact numbers through a remote hub', () => {
  it('parseHubJson keeps ints past 2^53, 1.0 and -0.0 as exact metadata text', () => {
    const v = parseHubJson(`{"events": [{"id": "e", "metadata": ${META}, "body": "${BODY}"}], "count": 1}`) as {
      events: { metadata: Record<string, unknown>; metadata_json?: string; body: string }[]
    }
    expect(v.events[0]!.metadata_json).toBe(META)
    expect(v.events[0]!.body).toBe(BODY)
    // plain metadata that JSON says exactly gets no text beside it
    expect(parseHubJson('{"metadata": {"a": 1, "b": 2.5}}')).toEqual({ metadata: { a: 1, b: 2.5 } })
  })

  it('append, the tool answer, the stream mirror (events list --hub) and artifact get keep them byte for byte', async () => {
    const { palace, run } = await registered()
    const appended = await run(...noteAppendArgs('lab', 'a', '--body', BODY, '--metadata', META, '--json'))
    expect(appended.code, appended.err).toBe(0)
    expect(appended.out).toContain('"big": 12345678901234567890')
    expect(appended.out).toContain('"f": 1.0')
    expect(appended.out).toContain('"z": -0.0')
    expect(storedMetadata(palace)).toEqual([META])

    const listed = await run('events', 'list', '--hub', 'lab', '--json')
    expect(listed.code, listed.err).toBe(0)
    expect(listed.out).toContain(
      '"metadata": {\n        "big": 12345678901234567890,\n        "f": 1.0,\n        "neg": -98765432109876543210,\n        "z": -0.0\n      }'
    )
    expect(listed.out).toContain(BODY)

    const client = new McpClient({ url: servers[0]!.url, token: TOKEN })
    const got = await client.callTool<{ events: { metadata_json?: string }[] }>('mempalace_event_list', { limit: 5 })
    expect(got.events[0]!.metadata_json).toBe(META)

    const put = await client.callTool<{ artifact: { id: string } }>('mempalace_artifact_put', {
      kind: 'note',
      content: 'x',
      created_by: 'a',
      metadata: { n: 1 }
    })
    const art = await client.callTool<{ artifact: { metadata: unknown; metadata_json?: string } }>('mempalace_artifact_get', {
      artifact_id: put.artifact.id
    })
    expect(art.artifact).toMatchObject({ metadata: { n: 1 } })
    expect(art.artifact.metadata_json).toBeUndefined()
  })
})
