import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { HubConnection, type ReadStep } from '../store/hub-connection'
import { createHub, type HubFile } from '../store/schema'
import { appendEvent } from '../store/writer'
import { readThreads } from './tasks'
import { ThreadCache } from './thread-cache'

const closers: (() => void)[] = []
afterEach(() => {
  while (closers.length) closers.pop()!()
})

/** A hub with one event in each of `threads` threads (`t0`, `t1`, ...), a writer and a reading connection. */
function hub(threads: number): { writer: HubFile; conn: HubConnection; ids: string[] } {
  const palace = tmpDir()
  const writer = createHub(palace)
  const ids = Array.from({ length: threads }, (_, i) => `t${i}`)
  for (const id of ids) say(writer, id, 'first')
  const conn = new HubConnection(palace)
  closers.push(
    () => writer.db.close(),
    () => conn.close()
  )
  return { writer, conn, ids }
}

function say(writer: HubFile, thread: string, body: string): void {
  appendEvent(writer.db, writer.replicaId, {
    type: 'chat.message',
    stream: 's',
    room: 'rooms',
    from_agent: 'a',
    to_agent: '*',
    body,
    correlation_id: thread
  })
}

/** The ids of each thread's events, per correlation id. */
const idsOf = (m: Map<string, { id: string }[]>) => new Map([...m].map(([k, v]) => [k, v.map((e) => e.id)]))

describe('task and patch threads kept between folds', () => {
  it('answers as a fresh read does, with rows written meanwhile appended once', async () => {
    const { writer, conn, ids } = hub(3)
    const read: ReadStep = (fn) => conn.readAsync(fn)
    const cache = new ThreadCache()
    expect(idsOf(await cache.read(read, ids))).toEqual(idsOf(await readThreads(read, ids)))
    say(writer, 't1', 'second')
    say(writer, 't1', 'third')
    say(writer, 'elsewhere', 'not a kept thread')
    const after = await cache.read(read, ids)
    expect(idsOf(after)).toEqual(idsOf(await readThreads(read, ids)))
    expect(after.get('t1')!.map((e) => e.body)).toEqual(['first', 'second', 'third'])
    expect(idsOf(await cache.read(read, [...ids, 'elsewhere']))).toEqual(idsOf(await readThreads(read, [...ids, 'elsewhere'])))
  })

  it('a second fold of 120 threads reads the file once (new rows), not once per 50 threads', async () => {
    const { conn, ids } = hub(120)
    let reads = 0
    const read: ReadStep = (fn) => {
      reads++
      return conn.readAsync(fn)
    }
    const cache = new ThreadCache()
    await cache.read(read, ids)
    reads = 0
    await cache.read(read, ids)
    expect(reads).toBe(1)
  })

  it('starts over on another connection (a replaced or reopened file)', async () => {
    const { writer, conn, ids } = hub(2)
    const cache = new ThreadCache()
    await cache.read((fn) => conn.readAsync(fn), ids)
    say(writer, 't0', 'second')
    const other = new HubConnection(writer.palaceDir)
    closers.push(() => other.close())
    const read: ReadStep = (fn) => other.readAsync(fn)
    expect(idsOf(await cache.read(read, ids))).toEqual(idsOf(await readThreads(read, ids)))
  })
})
