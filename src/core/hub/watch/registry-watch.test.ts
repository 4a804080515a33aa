import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import type { PushedEvent } from '../../../shared/api'
import { createHub } from '../store/schema'
import { appendEvent } from '../store/writer'
import { createService } from '../../root'
import { watchRegistry } from './registry-watch'

const open: { close(): unknown }[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

describe('hubs registered by another process', () => {
  it('are tailed by a running service: their events are pushed', async () => {
    const home = join(tmpDir(), 'home')
    // the running app or `muster serve`
    const app = await createService({ home, transport: 'http', watch: true })
    open.push(app)
    const pushed: string[] = []
    app.subscribe((e: PushedEvent) => {
      if (e.name === 'hub.events') for (const ev of e.payload.events) pushed.push(`${e.payload.hub}:${ev.body}`)
    })
    // the CLI, on the same home: `muster hubs add`
    const cli = await createService({ home, transport: 'http', watch: false })
    open.push(cli)
    const palace = join(tmpDir(), 'palace')
    const hub = createHub(palace)
    open.push({ close: () => hub.db.close() })
    await cli.call('hubs.add', { palace, name: 'late' })
    const put = (body: string): void => {
      appendEvent(hub.db, hub.replicaId, { type: 'note', stream: 'project/muse', room: 'r', from_agent: 'a', body })
    }
    // keep writing until the running service shows the hub's events (it never would without the watch)
    let n = 0
    await expect
      .poll(
        () => {
          put(`e${n++}`)
          return pushed.some((p) => p.startsWith('late:'))
        },
        { timeout: 30_000, interval: 200 }
      )
      .toBe(true)
  }, 90_000)
})

describe('watchRegistry', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('calls back when another connection changes the signature, not for other writes, not after stop', () => {
    vi.useFakeTimers()
    const file = join(tmpDir(), 'state.sqlite3')
    const mine = new Database(file)
    const theirs = new Database(file)
    open.push(mine, theirs)
    mine.exec('CREATE TABLE hubs (name TEXT); CREATE TABLE other (x INTEGER)')
    const signature = (): string => (mine.prepare('SELECT group_concat(name) FROM hubs').pluck().get() as string | null) ?? ''
    let calls = 0
    const stop = watchRegistry(mine, signature, () => calls++, 100)
    vi.advanceTimersByTime(100)
    expect(calls).toBe(0)
    theirs.prepare('INSERT INTO hubs VALUES (?)').run('late')
    vi.advanceTimersByTime(100)
    expect(calls).toBe(1)
    theirs.prepare('INSERT INTO other VALUES (1)').run()
    vi.advanceTimersByTime(300)
    expect(calls).toBe(1)
    theirs.prepare('DELETE FROM hubs').run()
    vi.advanceTimersByTime(100)
    expect(calls).toBe(2)
    stop()
    theirs.prepare('INSERT INTO hubs VALUES (?)').run('again')
    vi.advanceTimersByTime(500)
    expect(calls).toBe(2)
  })
})
