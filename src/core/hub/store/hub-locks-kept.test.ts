/**
 * A process that holds a hub open keeps its SQLite locks. POSIX drops every lock a process holds
 * on a file when it closes any descriptor of that file; a header check that opened and closed the
 * hub file once did that, so another process closing its connection believed it was the last one,
 * checkpointed and deleted `-wal` and `-shm`, and this process went on reading the deleted ones:
 * it never saw another event (the approve-hook test's request that the dashboard never showed).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { LocalHubBase } from '../local/local-hub-base'
import { createHub, HUB_FILENAME } from './schema'

/** Runs Python's sqlite3 (another process, another SQLite) on the hub file. */
function python(file: string, sql: string): void {
  const script = 'import sqlite3,sys\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.executescript(sys.argv[2])\nc.close()\n'
  const r = spawnSync('python3', ['-c', script, file, sql], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`)
}

/** Python writes `sql` and keeps its connection open (as a waiting hook does) until stdin closes. */
async function pythonHolding(file: string, sql: string): Promise<() => Promise<void>> {
  const script =
    'import sqlite3,sys\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.executescript(sys.argv[2])\nprint("ok",flush=True)\nsys.stdin.read()\nc.close()\n'
  const py = spawn('python3', ['-c', script, file, sql], { stdio: ['pipe', 'pipe', 'inherit'] })
  const closed = new Promise((res) => py.on('close', res))
  await new Promise<void>((res, rej) => {
    py.stdout.once('data', () => res())
    py.once('close', (code) => rej(new Error(`python3 exited ${code}`)))
  })
  return async () => {
    py.stdin.end()
    await closed
  }
}

const open: LocalHubBase[] = []
afterEach(() => open.splice(0).forEach((h) => h.close()))

describe('a hub held open by this process', () => {
  it('after its own writes, another process closing its connection leaves -wal in place, and that process’s later writes are seen', async () => {
    const palace = tmpDir()
    createHub(palace).close()
    const file = join(palace, HUB_FILENAME)
    const hub = new LocalHubBase(palace)
    open.push(hub)
    const first = await hub.append({ type: 'chat.message', stream: 'project/x', room: 'rooms', from_agent: 'a', body: 'one' })
    await hub.append({ type: 'chat.message', stream: 'project/x', room: 'rooms', from_agent: 'a', body: 'two' })
    expect((await hub.list({ order: 'asc', limit: 10 })).events.map((e) => e.body)).toEqual(['one', 'two'])

    python(file, 'SELECT count(*) FROM events;') // opens and closes: it is not the last connection
    expect(existsSync(`${file}-wal`)).toBe(true)
    const release = await pythonHolding(file, `UPDATE events SET body = 'one, edited elsewhere' WHERE id = '${first.id}';`)
    try {
      expect((await hub.get(first.id))!.body).toBe('one, edited elsewhere')
    } finally {
      await release()
    }
    await hub.append({ type: 'chat.message', stream: 'project/x', room: 'rooms', from_agent: 'a', body: 'three' })
    expect((await hub.list({ order: 'asc', limit: 10 })).events.map((e) => e.body)).toEqual(['one, edited elsewhere', 'two', 'three'])
  })
})
