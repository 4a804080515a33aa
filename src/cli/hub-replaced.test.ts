import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { linkSync, openSync, closeSync, renameSync, statSync, truncateSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardOrigin } from '../../test/helpers/serve-process'
import { tmpDir } from '../../test/helpers/tmp'
import { builtCliOut } from '../../test/helpers/built-cli'
import { createHub, HUB_FILENAME } from '../core/hub/store/schema'
import { appendEvent } from '../core/hub/store/writer'
import { madeHub, numberedBodies } from '../../test/helpers/made-hub'

// The real `muster serve` process, built from the current sources (once per run).
const CLI = join(builtCliOut(), 'muster.cjs')
const TOKEN = 'hub-replaced-token-0123456789'

let child: ChildProcess
let url: string
beforeAll(async () => {
  child = spawn(process.execPath, [CLI, 'serve', '--home', tmpDir(), '--token', TOKEN], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MUSTER_HOME: '' }
  })
  url = await dashboardOrigin(child, 30_000)
}, 240_000)
afterAll(() => {
  child?.kill('SIGKILL')
})

interface Answer {
  status: number
  body: { error?: string; id?: string; events?: { id: string; body: string }[] }
}
async function call(method: string, input: object): Promise<Answer> {
  const res = await fetch(`${url}/api/call/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(30_000)
  })
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}

const append = (palace: string, body: string) =>
  call('hub.append', { palace, type: 'chat.message', stream: 'project/x', room: 'rooms', body })
const timeline = async (palace: string) => (await call('hub.list', { palace, order: 'asc', limit: 500 })).body.events?.map((e) => e.body)

/** Bodies in a hub file, read directly (the file the path names, or a hard link kept to an old one). */
function bodiesIn(file: string): string[] {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare('SELECT body FROM events ORDER BY rowid').all() as { body: string }[]).map((r) => r.body)
  } finally {
    db.close()
  }
}

/** Hard links to the hub file and its -wal as `old.keep`, so the file can be read after it stops being the hub. */
function keep(palace: string): void {
  linkSync(join(palace, HUB_FILENAME), join(palace, 'old.keep'))
  linkSync(join(palace, `${HUB_FILENAME}-wal`), join(palace, 'old.keep-wal'))
}

describe('muster serve: the hub file is the hub', () => {
  it('replaced by rename under load: every acknowledged append is in a hub file, none sent after the swap lands in the old one; the timeline follows', async () => {
    const palace = join(tmpDir(), 'palace')
    expect((await call('hubs.add', { palace, create: true, name: 'h1' })).status).toBe(200)
    expect((await append(palace, 'a1')).status).toBe(200)
    const file = join(palace, HUB_FILENAME)
    keep(palace) // the old file stays readable after the swap
    const replacement = madeHub(tmpDir(), ['b1', 'b2'])
    const acked: { body: string; afterSwap: boolean }[] = []
    let swapped = false
    const sends = Array.from({ length: 40 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 15))
      const afterSwap = swapped
      const r = await append(palace, `load-${i}`)
      if (r.status === 200) acked.push({ body: `load-${i}`, afterSwap })
      else expect(r.body.error).toMatch(/replaced or deleted during the write/)
    })
    setTimeout(() => {
      renameSync(replacement, file)
      swapped = true
    }, 250)
    await Promise.all(sends)
    expect(swapped).toBe(true)
    const now = bodiesIn(file)
    const old = bodiesIn(join(palace, 'old.keep'))
    for (const a of acked) {
      expect(now.includes(a.body) || old.includes(a.body), `${a.body} acknowledged but in no hub file`).toBe(true)
      if (a.afterSwap) expect(now, `${a.body} was sent after the swap`).toContain(a.body)
    }
    expect(acked.filter((a) => a.afterSwap).length).toBeGreaterThan(0)
    expect((await append(palace, 'after-swap')).status).toBe(200)
    expect(bodiesIn(file)).toContain('after-swap')
    expect(old).not.toContain('after-swap')
    const seen = await timeline(palace)
    expect(seen).toEqual(expect.arrayContaining(['b1', 'b2', 'after-swap']))
    expect(seen).not.toContain('a1')
  }, 120_000)

  it('deleted: appends are refused (nothing acknowledged into the unlinked file); a restored file is followed', async () => {
    const palace = join(tmpDir(), 'palace')
    expect((await call('hubs.add', { palace, create: true, name: 'h2' })).status).toBe(200)
    expect((await append(palace, 'a1')).status).toBe(200)
    const file = join(palace, HUB_FILENAME)
    keep(palace)
    unlinkSync(file)
    const refused = await append(palace, 'into-the-void')
    expect(refused.status).toBe(404)
    expect(refused.body.error).toMatch(/was deleted while Muster had it open: writes are refused/)
    expect(bodiesIn(join(palace, 'old.keep'))).not.toContain('into-the-void')
    expect((await call('hub.list', { palace, order: 'asc', limit: 10 })).status).toBe(404)
    renameSync(madeHub(tmpDir(), ['restored']), file)
    expect((await append(palace, 'after-restore')).status).toBe(200)
    expect(await timeline(palace)).toEqual(['restored', 'after-restore'])
  }, 60_000)

  it('truncated to 0 bytes or corrupted (header or a page): no write is taken, the file is left as it is', async () => {
    const palace = join(tmpDir(), 'palace')
    expect((await call('hubs.add', { palace, create: true, name: 'h3' })).status).toBe(200)
    for (let i = 0; i < 60; i++) expect((await append(palace, `filler ${i} ${'x'.repeat(400)}`)).status).toBe(200)
    const file = join(palace, HUB_FILENAME)
    await call('hub.list', { palace, limit: 1 })

    truncateSync(file, 0)
    const emptied = await append(palace, 'into-empty')
    expect(emptied.status).toBe(409)
    expect(emptied.body.error).toMatch(/was emptied \(truncated to 0 bytes\).*writes are refused/)
    expect(statSync(file).size).toBe(0)

    // a complete hub again (copied in place: same inode), then a damaged page in its middle
    renameSync(madeHub(tmpDir(), numberedBodies(60, 'restored', 400)), file)
    expect((await append(palace, 'after-restore')).status).toBe(200)
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096 * 3)
    closeSync(fd)
    const damaged = await append(palace, 'into-damaged')
    expect(damaged.status).toBe(400)
    expect(damaged.body.error).toMatch(/corrupt\?.*writes are refused/)

    const hfd = openSync(file, 'r+')
    writeSync(hfd, Buffer.from('not sqlite at all'), 0, 17, 0)
    closeSync(hfd)
    const header = await append(palace, 'into-garbage')
    expect(header.status).toBe(400)
    expect(header.body.error).toMatch(/corrupt\?.*writes are refused/)
    expect((await call('app.info', {})).status).toBe(200)
  }, 120_000)

  it('a BLOB body written by another process is shown as binary by events list --json and thread', () => {
    const dir = tmpDir()
    const hub = createHub(dir)
    const e = appendEvent(hub.db, hub.replicaId, {
      type: 'chat.message',
      stream: 'project/x',
      room: 'rooms',
      from_agent: 'other',
      correlation_id: 'task_blob',
      body: 'x'
    })
    hub.db.prepare('UPDATE events SET body = ? WHERE id = ?').run(Buffer.from([0xff, 0x00, 0x1b, 0x5b]), e.id)
    hub.close()
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, '--home', tmpDir(), '--palace', dir, ...args], {
        encoding: 'utf8',
        env: { ...process.env, MUSTER_HOME: '' }
      })
    const list = cli('events', 'list', '--json')
    expect(list.status, list.stderr).toBe(0)
    expect((JSON.parse(list.stdout) as { events: { body: string }[] }).events.map((x) => x.body)).toEqual(['[binary body: 4 bytes]'])
    const thread = cli('thread', 'task_blob')
    expect(thread.status, thread.stderr).toBe(0)
    expect(thread.stdout).toContain('[binary body: 4 bytes]')
  })
})
