import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { createService } from '../../root'
import type { MusterService } from '../../service-types'
import { openDatabase } from '../../sqlite'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!()
})

/** Another process holding the hub's write lock (`BEGIN EXCLUSIVE`) for `holdMs`. */
async function holdLock(palace: string, holdMs: number): Promise<ChildProcessWithoutNullStreams> {
  const script = fileURLToPath(new URL('../../../../test/hub_lock.py', import.meta.url))
  const py = spawn('python3', [script, palace, String(holdMs)])
  cleanup.push(() => py.kill())
  await new Promise<void>((resolve, reject) => {
    py.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve())
    py.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)))
  })
  return py
}

async function service(lockMs: number): Promise<MusterService> {
  const s = await createService({ home: tmpDir(), transport: 'http', watch: false, hubLockTimeoutMs: lockMs })
  cleanup.push(() => s.close())
  return s
}

/**
 * Calls `app.info` every 10 ms until `done` settles; returns how many calls were answered meanwhile.
 * A service whose event loop froze for the whole wait answers none or one: the count proves it stayed
 * free without a wall-clock bound (how fast it answers is `npm run bench`'s figure).
 */
async function probe(done: Promise<unknown>, s: MusterService): Promise<number> {
  let settled = false
  void done.finally(() => (settled = true))
  let answered = 0
  while (!settled) {
    await s.call('app.info', {})
    if (!settled) answered++
    await new Promise((r) => setTimeout(r, 10))
  }
  return answered
}

describe('a locked hub never freezes the service', () => {
  it("a write waiting on another process's lock leaves the event loop free, then fails clearly having written nothing", async () => {
    const s = await service(1500)
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    await s.call('hub.append', { hub: 'h', type: 'chat.message', stream: 's', room: 'rooms', body: 'before' })
    await holdLock(palace, 15_000)
    const t0 = Date.now()
    const append = s.call('hub.append', { hub: 'h', type: 'chat.message', stream: 's', room: 'rooms', body: 'blocked' }).then(
      () => null,
      (err: unknown) => err as Error & { code?: string }
    )
    const answered = await probe(append, s)
    const err = await append
    expect(err?.message).toMatch(/^hub is locked: another process holds .*logstream\.sqlite3 \(gave up after 1500 ms\)$/)
    expect(err?.code).toBe('conflict')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400)
    expect(answered).toBeGreaterThanOrEqual(3)
    // Reads go on meanwhile (WAL), and nothing of the refused write was stored.
    const listed = await s.call('hub.list', { hub: 'h' })
    expect(listed.events.map((e) => e.body)).toEqual(['before'])
  })

  it('a write that the lock lets go of in time succeeds, without a freeze', async () => {
    const s = await service(5000)
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    await holdLock(palace, 1500)
    const t0 = Date.now()
    const append = s.call('hub.append', { hub: 'h', type: 'chat.message', stream: 's', room: 'rooms', body: 'after the lock' })
    const answered = await probe(append, s)
    expect((await append).event.body).toBe('after the lock')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400)
    expect(answered).toBeGreaterThanOrEqual(3)
  })

  it('reads of a rollback-journal hub wait for an exclusive lock without blocking', async () => {
    const s = await service(5000)
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    await s.call('hub.append', { hub: 'h', type: 'chat.message', stream: 's', room: 'rooms', body: 'legacy' })
    await s.close()
    const db = openDatabase(join(palace, 'logstream.sqlite3'))
    db.pragma('journal_mode = DELETE') // an older MemPalace file, never opened in WAL mode
    db.close()
    const fresh = await service(5000)
    await holdLock(palace, 1500)
    const list = fresh.call('hub.list', { palace })
    const answered = await probe(list, fresh)
    expect((await list).events.map((e) => e.body)).toEqual(['legacy'])
    expect(answered).toBeGreaterThanOrEqual(3)
  })
})
