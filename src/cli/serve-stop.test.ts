/**
 * `muster serve` as a process, on a hub holding one row at rowid 9223372036854775000 written by
 * another process (issue 23, point 4): app.info and hub.list answer, and SIGTERM ends the server
 * while a hub wait and an event stream are open.
 */
import { spawnSync } from 'node:child_process'
import { request } from 'node:http'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { callServe, startServe, stopServe } from '../../test/helpers/serve-process'
import { tmpDir } from '../../test/helpers/tmp'
import { createHub } from '../core/hub/store/schema'
import { appendEvent } from '../core/hub/store/writer'
import { insertHugeRowid } from '../../test/helpers/huge-rowid'

let bin: string
beforeAll(() => {
  bin = builtCli()
}, 240_000)

const TOKEN = 'serve-stop-token-0123456789'

/** POSTs one API call; resolves with status and parsed body (rejects on a socket error). */
async function call(
  port: number,
  method: string,
  input: unknown
): Promise<{ status: number; body: Record<string, unknown> & { events?: { id: string }[] } }> {
  const { status, text } = await callServe(port, TOKEN, method, input)
  if (status === 0) throw new Error(text)
  return { status, body: JSON.parse(text || 'null') }
}

describe('muster serve with a huge rowid in a hub', () => {
  it('answers app.info and hub.list, and ends on SIGTERM while a wait and a stream are open', async () => {
    const home = tmpDir()
    const palace = join(tmpDir(), 'palace')
    const file = createHub(palace)
    for (let i = 0; i < 20; i++)
      appendEvent(file.db, file.replicaId, { type: 'chat.message', stream: 's', room: 'rooms', from_agent: 'a', body: `m${i}` })
    file.close()
    insertHugeRowid(palace)
    const added = spawnSync(process.execPath, [bin, 'hubs', 'add', palace, '--name', 'big', '--home', home], { encoding: 'utf8' })
    expect(added.status, added.stderr).toBe(0)

    const serve = await startServe(bin, home, TOKEN)
    const { proc, port } = serve
    for (let i = 0; i < 20; i++) expect((await call(port, 'app.info', {})).status).toBe(200)
    const listed = await call(port, 'hub.list', { hub: 'big', order: 'desc', limit: 50 })
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.events).toHaveLength(21)
    expect(listed.body.events![0]!.id).toBe('evt_huge')
    const filtered = await call(port, 'hub.list', { hub: 'big', from_agent: 'nobody', order: 'desc' })
    expect(filtered).toMatchObject({ status: 200, body: { events: [] } })

    // busy: a hub wait that will not end by itself, and a live event stream
    void call(port, 'hub.wait', { hub: 'big', since_event_id: 'evt_huge', timeout_ms: 600_000 }).catch(() => {})
    const stream = request({
      host: '127.0.0.1',
      port,
      path: '/api/events',
      headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}` }
    })
    stream.on('error', () => {})
    stream.end()
    await new Promise((r) => setTimeout(r, 500))
    const code = await stopServe(serve, 10_000)
    expect(proc.signalCode, 'ended by itself, not by the SIGKILL fallback').toBeNull()
    expect(code).toBe(0)
  }, 120_000)
})
