import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { createService } from '../service'
import type { MusterService } from '../service-types'
import { openDatabase } from '../sqlite'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!()
})

/** Another process holding the hub's write lock (`BEGIN EXCLUSIVE`) for `holdMs`. */
async function holdLock(palace: string, holdMs: number): Promise<ChildProcessWithoutNullStreams> {
  const script = fileURLToPath(new URL('../../../test/hub_lock.py', import.meta.url))
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

/** Calls `app.info` every 10 ms until `done` settles; returns every latency and the longest event-loop stall. */
async function probe(done: Promise<unknown>, s: MusterService): Promise<{ latencies: number[]; stall: number }> {
  let settled = false
  void done.finally(() => (settled = true))
  let last = performance.now()
  let stall = 0
  const tick = setInterval(() => {
    const now = performance.now()
    stall = Math.max(stall, now - last)
    last = now
  }, 5)
  const latencies: number[] = []
  try {
    while (!settled) {
      const t = performance.now()
      await s.call('app.info', {})
      latencies.push(performance.now() - t)
      await new Promise((r) => setTimeout(r, 10))
    }
  } finally {
    clearInterval(tick)
  }
  return { latencies, stall }
}

const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!

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
    const { latencies, stall } = await probe(append, s)
    const err = await append
    expect(err?.message).toMatch(/^hub is locked: another process holds .*logstream\.sqlite3 \(gave up after 1500 ms\)$/)
    expect(err?.code).toBe('conflict')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400)
    expect(latencies.length).toBeGreaterThan(20)
    expect(p95(latencies)).toBeLessThan(50)
    expect(stall).toBeLessThan(100)
    // Reads go on meanwhile (WAL), and nothing of the refused write was stored.
    const listed = await s.call('hub.list', { hub: 'h' })
    expect(listed.events.map((e) => e.body)).toEqual(['before'])
  })

  it('a write that the lock lets go of in time succeeds, without a freeze', async () => {
    const s = await service(5000)
    const palace = join(tmpDir(), 'palace')
    await s.call('hubs.add', { palace, name: 'h', create: true })
    await holdLock(palace, 600)
    const t0 = Date.now()
    const append = s.call('hub.append', { hub: 'h', type: 'chat.message', stream: 's', room: 'rooms', body: 'after the lock' })
    const { latencies } = await probe(append, s)
    expect((await append).event.body).toBe('after the lock')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400)
    expect(p95(latencies)).toBeLessThan(50)
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
    await holdLock(palace, 600)
    const list = fresh.call('hub.list', { palace })
    const { latencies } = await probe(list, fresh)
    expect((await list).events.map((e) => e.body)).toEqual(['legacy'])
    expect(p95(latencies)).toBeLessThan(50)
  })
})
