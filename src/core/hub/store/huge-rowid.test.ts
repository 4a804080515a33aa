/**
 * One hub row with a huge rowid (9223372036854775000), written by another process: every query
 * still answers, in pages, without walking the gap (issue 23, point 4), cursors around the row
 * neither repeat nor skip it, a live tail delivers it once, and appends after it work.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { insertHugeRowid } from '../../../../test/helpers/huge-rowid'
import type { HubEventEnvelope } from '../../../shared/contract/hub-types'
import { LocalHub } from '../local/local-hub'
import { createHub } from './schema'
import { appendEvent } from './writer'

const closers: (() => unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

function hubWithHugeRow(n = 30): { palace: string; hub: LocalHub } {
  const palace = join(tmpDir(), 'palace')
  const file = createHub(palace)
  for (let i = 0; i < n; i++)
    appendEvent(file.db, file.replicaId, {
      type: i % 3 ? 'chat.message' : 'task.request',
      stream: 's',
      room: 'rooms',
      from_agent: `a${i % 4}`,
      to_agent: 'desk',
      body: `m${i}`
    })
  file.close()
  insertHugeRowid(palace)
  const hub = new LocalHub(palace, { busyTimeoutMs: 300 })
  closers.push(() => hub.close())
  return { palace, hub }
}

const ids = (events: HubEventEnvelope[]) => events.map((e) => e.id)

describe('a hub row with rowid 9223372036854775000', () => {
  it('lists answer, filtered or not, both ways, and page through it once', async () => {
    const { hub } = hubWithHugeRow()
    expect((await hub.list({ order: 'desc', limit: 5 })).events[0]!.id).toBe('evt_huge')
    expect((await hub.list({ order: 'asc', limit: 500 })).events).toHaveLength(31)
    expect((await hub.list({ type: 'task.request', order: 'desc', limit: 5 })).events).toHaveLength(5)
    expect((await hub.list({ from_agent: 'far-agent', order: 'asc' })).events.map((e) => e.id)).toEqual(['evt_huge'])
    expect((await hub.list({ from_agent: 'nobody', order: 'desc' })).events).toEqual([])
    // paging by cursor: every row exactly once, in both directions
    const seen: string[] = []
    let before: string | undefined
    for (let i = 0; i < 40; i++) {
      const page = await hub.list({ order: 'desc', limit: 7, ...(before ? { before_event_id: before } : {}) })
      seen.push(...ids(page.events))
      if (!page.has_more) break
      before = page.events[page.events.length - 1]!.id
    }
    expect(seen).toHaveLength(31)
    expect(new Set(seen).size).toBe(31)
    expect((await hub.list({ since_event_id: 'evt_huge' })).events).toEqual([])
    expect((await hub.list({ before_event_id: 'evt_huge', order: 'desc', limit: 1 })).events[0]!.body).toBe('m29')
  })

  it('appends after it get their own rowid; a cursor on it finds them; a live tail delivers each event once', async () => {
    const { hub } = hubWithHugeRow(3)
    const got: string[] = []
    const sub = hub.subscribe(
      { after_id: (await hub.list({ order: 'asc', limit: 1 })).events[0]!.id },
      { events: (es) => got.push(...ids(es)) }
    )
    closers.push(() => sub.close())
    const next = await hub.append({ type: 'chat.message', stream: 's', room: 'rooms', from_agent: 'near', body: 'after the gap' })
    expect((await hub.list({ since_event_id: 'evt_huge' })).events.map((e) => e.body)).toEqual(['after the gap'])
    expect((await hub.get(next.id))!.origin_seq).not.toBeNull()
    for (let i = 0; i < 200 && !got.includes(next.id); i++) await new Promise((r) => setTimeout(r, 25))
    await new Promise((r) => setTimeout(r, 300)) // a few more polls: nothing repeats
    expect(got.filter((id) => id === 'evt_huge')).toHaveLength(1)
    expect(got.filter((id) => id === next.id)).toHaveLength(1)
  })
})
