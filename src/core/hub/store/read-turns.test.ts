import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { HubConnection } from './hub-connection'
import { createHub } from './schema'

const open: HubConnection[] = []
afterEach(() => {
  while (open.length) open.pop()!.close()
})

/** A connection on a new, empty hub. */
function connection(): HubConnection {
  const palace = tmpDir()
  createHub(palace).db.close()
  const conn = new HubConnection(palace)
  open.push(conn)
  return conn
}

describe('hub reads take turns with the event loop', () => {
  it('two reads started together: work queued by the first runs before the second', async () => {
    const conn = connection()
    const order: string[] = []
    await Promise.all([
      conn.readAsync(() => {
        order.push('first read')
        setImmediate(() => order.push('event loop'))
      }),
      conn.readAsync(() => order.push('second read'))
    ])
    expect(order).toEqual(['first read', 'event loop', 'second read'])
  })

  it('a fold of reads one after another lets the event loop run between every two', async () => {
    const conn = connection()
    let looped = false
    const sawLoop: boolean[] = []
    for (let i = 0; i < 4; i++) {
      await conn.readAsync(() => {
        sawLoop.push(looped)
        looped = false
        setImmediate(() => (looped = true))
      })
    }
    expect(sawLoop.slice(1)).toEqual([true, true, true])
  })

  it('a failing read does not stop the reads queued after it', async () => {
    const conn = connection()
    const failed = conn.readAsync(() => {
      throw new Error('boom')
    })
    const next = conn.readAsync((db) => db.prepare('SELECT 1 AS one').get())
    await expect(failed).rejects.toThrow('boom')
    await expect(next).resolves.toEqual({ one: 1 })
  })
})
