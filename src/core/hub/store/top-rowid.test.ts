/**
 * Rowids at the int64 boundary (issue 36, point 1). Another writer of the hub file can put rows at
 * 2^63 - 1 and anywhere near it (or below zero); from then on SQLite numbers new rows at random.
 * A property test walks every query and cursor of the store over hubs holding such rows: pages in
 * both orders, with every filter, from every anchor, partition the rows exactly in rowid order;
 * counts, threads, tasks, inbox, presence and the overview answer; the live tail, from the start,
 * the tip or any event, delivers each new row once; waits wake on new rows; and Muster's own
 * appends stay in sequence, never needing a rowid above one the file holds.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import type { HubEventEnvelope } from '../../../shared/contract/hub-types'
import { openDatabase } from '../../sqlite'
import { seededRandom } from '../../seeded-random'
import { LocalHub } from '../local/local-hub'
import { SEQUENCE_CEILING, TOP_ROWID } from './event-query'
import { createHub, HUB_FILENAME } from './schema'
import { appendEvent } from './writer'

const closers: (() => unknown)[] = []
afterEach(async () => {
  while (closers.length) await closers.pop()!()
})

const MIN_ROWID = -9223372036854775808n
/** Rowids another writer may use: the top, its neighbours, both sides of 2^53, below zero. */
const BOUNDARY: bigint[] = [
  TOP_ROWID,
  TOP_ROWID - 1n,
  TOP_ROWID - 2n,
  9223372036854775000n,
  SEQUENCE_CEILING + 1n,
  SEQUENCE_CEILING,
  SEQUENCE_CEILING - 1n,
  -5n,
  MIN_ROWID
]

const TYPES = ['chat.message', 'task.request', 'event.ack', 'status']
const AGENTS = ['a0', 'a1', 'desk', 'far']

/** A hub with `n` ordinary events, then foreign rows at `foreign` rowids (as another process writes them, by plain SQL). */
function hubWith(
  foreign: bigint[],
  n = 12,
  seed = 1
): { palace: string; hub: LocalHub; insert: (rowid: bigint | null, i: number) => void } {
  const palace = join(tmpDir(), 'palace')
  const file = createHub(palace)
  const rnd = seededRandom(seed)
  for (let i = 0; i < n; i++)
    appendEvent(file.db, file.replicaId, {
      type: TYPES[i % TYPES.length]!,
      stream: 's',
      room: 'rooms',
      from_agent: AGENTS[i % AGENTS.length]!,
      to_agent: i % 3 ? 'desk' : '*',
      correlation_id: `c${i % 3}`,
      status: i % 4 === 1 ? 'open' : null,
      body: `m${i}`
    })
  file.close()
  const db = openDatabase(join(palace, HUB_FILENAME))
  closers.push(() => db.close())
  const insert = (rowid: bigint | null, i: number): void => {
    db.prepare(
      `INSERT INTO events (rowid, id, type, stream, room, from_agent, to_agent, correlation_id, body, created_at, metadata_json)
       VALUES (?, ?, ?, 's', 'rooms', ?, ?, ?, ?, '2026-12-05T10:00:00Z', '{}')`
    ).run(
      rowid,
      `evt_foreign_${i}_${Math.floor(rnd() * 1e9)}`,
      TYPES[i % TYPES.length],
      AGENTS[(i + 1) % AGENTS.length],
      i % 2 ? 'desk' : null,
      `c${i % 3}`,
      `f${i}`
    )
  }
  foreign.forEach((r, i) => insert(r, i))
  const hub = new LocalHub(palace, { busyTimeoutMs: 2000 })
  closers.push(() => hub.close())
  return { palace, hub, insert }
}

/** Every event id in exact rowid order, read by SQLite itself. */
function truth(palace: string, where = '1', ...params: unknown[]): string[] {
  const db = openDatabase(join(palace, HUB_FILENAME), { readonly: true })
  try {
    return db
      .prepare(`SELECT id FROM events WHERE ${where} ORDER BY rowid`)
      .pluck()
      .all(...params) as string[]
  } finally {
    db.close()
  }
}

/** The exact rowid of an event. */
function rowidOf(palace: string, id: string): bigint {
  const db = openDatabase(join(palace, HUB_FILENAME), { readonly: true })
  try {
    return db.prepare('SELECT rowid FROM events WHERE id = ?').pluck().safeIntegers(true).get(id) as bigint
  } finally {
    db.close()
  }
}

const ids = (events: HubEventEnvelope[]) => events.map((e) => e.id)

/** Pages through `hub.list` from each end with `limit`, by event-id cursors: the ids met, in the order met. */
async function pageAll(hub: LocalHub, filters: Record<string, unknown>, order: 'asc' | 'desc', limit: number): Promise<string[]> {
  const seen: string[] = []
  let cursor: string | undefined
  for (let i = 0; i < 200; i++) {
    const key = order === 'asc' ? 'since_event_id' : 'before_event_id'
    const page = await hub.list({ ...filters, order, limit, ...(cursor ? { [key]: cursor } : {}) })
    seen.push(...ids(page.events))
    if (!page.has_more) return seen
    cursor = page.events[page.events.length - 1]!.id
  }
  throw new Error('paging did not end')
}

describe('rows at the int64 boundary', () => {
  it('every list, filter and cursor pages through the rows exactly once, in rowid order', async () => {
    const rnd = seededRandom(36)
    for (let trial = 0; trial < 6; trial++) {
      // a different handful of boundary rows each time (the top row always: it is the attack)
      const foreign = [TOP_ROWID, ...BOUNDARY.filter((r) => r !== TOP_ROWID && rnd() < 0.5)]
      const { palace, hub } = hubWith(foreign, 10 + trial, trial + 1)
      const all = truth(palace)
      expect(all).toHaveLength(10 + trial + foreign.length)
      const filterCases: [Record<string, unknown>, string, unknown[]][] = [
        [{}, '1', []],
        [{ type: 'task.request' }, 'type = ?', ['task.request']],
        [{ from_agent: 'far' }, 'from_agent = ?', ['far']],
        [{ to_agent: 'desk' }, "to_agent IN (?, '*')", ['desk']],
        [{ correlation_id: 'c1', type: ['event.ack', 'status'] }, "correlation_id = ? AND type IN ('event.ack', 'status')", ['c1']],
        [{ exclude_from_agent: 'a0' }, 'from_agent <> ?', ['a0']],
        [{ text: 'f' }, "body LIKE '%f%'", []]
      ]
      for (const [filters, where, params] of filterCases) {
        const want = truth(palace, where, ...params)
        for (const limit of [1, 2, 3, 7, 500]) {
          expect(await pageAll(hub, filters, 'asc', limit), `${JSON.stringify(filters)} asc ${limit}`).toEqual(want)
          expect(await pageAll(hub, filters, 'desc', limit), `${JSON.stringify(filters)} desc ${limit}`).toEqual([...want].reverse())
        }
        expect(await hub.count(filters as never)).toBe(want.length)
      }
      // every anchor, both ways
      for (const [i, id] of all.entries()) {
        expect(ids((await hub.list({ since_event_id: id, limit: 500 })).events)).toEqual(all.slice(i + 1))
        expect(ids((await hub.list({ before_event_id: id, order: 'desc', limit: 500 })).events)).toEqual(all.slice(0, i).reverse())
        expect(ids((await hub.list({ since_event_id: id, before_event_id: all.at(-1)!, limit: 500 })).events)).toEqual(all.slice(i + 1, -1))
      }
      // the folds answer
      for (const c of ['c0', 'c1', 'c2']) {
        const t = await hub.thread({ correlation_id: c })
        expect(ids(t.events)).toEqual(truth(palace, 'correlation_id = ?', c))
      }
      await hub.tasks({})
      const inbox = await hub.inbox({ agent: 'desk', after: null, limit: 50 })
      expect(ids(inbox.events)).toEqual(truth(palace, "to_agent IN ('desk', '*') AND from_agent <> 'desk'").reverse())
      await hub.unread('desk', { seq: Number(TOP_ROWID), id: 'x' })
      const agents = (await hub.presence({})).map((p) => p.agent).sort()
      const db = openDatabase(join(palace, HUB_FILENAME), { readonly: true })
      expect(agents).toEqual(db.prepare("SELECT DISTINCT from_agent FROM events WHERE type = 'status' ORDER BY from_agent").pluck().all())
      db.close()
      await hub.overview({ operator: 'desk', inbox_after: null })
      expect((await hub.tip())!.id).toBe(all.at(-1))
      await hub.close()
    }
  }, 240_000)

  it("Muster's appends after a row at the top stay in sequence, below every row out of sequence", async () => {
    const { palace, hub } = hubWith([TOP_ROWID, TOP_ROWID - 7n, SEQUENCE_CEILING + 3n])
    const before = truth(palace).length
    const mine: string[] = []
    for (let i = 0; i < 5; i++)
      mine.push((await hub.append({ type: 'chat.message', stream: 's', room: 'rooms', from_agent: 'op', body: `after ${i}` })).id)
    const rowids = mine.map((id) => rowidOf(palace, id))
    // right after the last row in sequence (12 ordinary rows), one after the other
    expect(rowids).toEqual([13n, 14n, 15n, 16n, 17n])
    expect(truth(palace)).toHaveLength(before + 5)
    // origin_seq = rowid, exactly
    const db = openDatabase(join(palace, HUB_FILENAME), { readonly: true })
    closers.push(() => db.close())
    expect(db.prepare('SELECT origin_seq FROM events WHERE id = ?').pluck().safeIntegers(true).get(mine[4])).toBe(17n)
    // a cursor on an earlier one of them finds the later ones
    expect(ids((await hub.list({ since_event_id: mine[1]!, type: 'chat.message', from_agent: 'op' })).events)).toEqual(mine.slice(2))
    // a row only 9223372036854775000 away fills up as SQLite numbers after it, then the same
    const second = hubWith([9223372036854775000n])
    for (let i = 0; i < 3; i++) await second.hub.append({ type: 'note', stream: 's', room: 'r', from_agent: 'op', body: `x${i}` })
    expect(rowidOf(second.palace, truth(second.palace).at(-1)!)).toBe(9223372036854775003n)
  })

  it('the live tail and waits deliver each new row once, whatever region it lands in', async () => {
    const { palace, hub, insert } = hubWith([TOP_ROWID, SEQUENCE_CEILING + 10n], 6)
    const fromStart: string[] = []
    const fromTip: string[] = []
    const fromTop: string[] = []
    const afterFirst: string[] = []
    const all0 = truth(palace)
    const subs = [
      hub.subscribe({ from: 'start' }, { events: (es) => fromStart.push(...ids(es)) }),
      hub.subscribe({ from: 'tip' }, { events: (es) => fromTip.push(...ids(es)) }),
      hub.subscribe({ after_id: all0.at(-1)! }, { events: (es) => fromTop.push(...ids(es)) }),
      hub.subscribe({ after_id: all0[0]! }, { events: (es) => afterFirst.push(...ids(es)) })
    ]
    for (const s of subs) closers.push(() => s.close())
    const settle = async (want: () => boolean): Promise<void> => {
      for (let i = 0; i < 400 && !want(); i++) await new Promise((r) => setTimeout(r, 25))
      for (const s of subs) s.poke()
      await new Promise((r) => setTimeout(r, 150))
    }
    await settle(() => fromStart.length >= all0.length)
    expect(fromStart).toEqual(all0)

    // a wait without a cursor, started before the rows arrive
    const waited = hub.wait({ from_agent: 'op', timeout_ms: 60_000 })
    const newIds: string[] = []
    // Muster's appends (in sequence), a foreign row SQLite places at random, one placed between
    newIds.push((await hub.append({ type: 'note', stream: 's', room: 'r', from_agent: 'op', body: 'mine 1' })).id)
    insert(null, 100)
    insert(SEQUENCE_CEILING + 5n, 101)
    newIds.push((await hub.append({ type: 'note', stream: 's', room: 'r', from_agent: 'op', body: 'mine 2' })).id)
    const now = truth(palace)
    const added = now.filter((id) => !all0.includes(id))
    expect(added).toHaveLength(4)
    // it wakes with Muster's rows in their order (by the time it looks, the second may be there too)
    expect(['mine 1', 'mine 1,mine 2']).toContain((await waited).events.map((e) => e.body).join())

    await settle(() => fromTip.length >= 4 && fromStart.length >= now.length)
    for (const got of [fromTip, fromTop]) expect([...got].sort()).toEqual([...added].sort())
    expect([...fromStart].sort()).toEqual([...now].sort())
    expect(new Set(fromStart).size).toBe(fromStart.length)
    // after the first event: everything after it, each once
    expect([...afterFirst].sort()).toEqual(now.filter((id) => id !== all0[0]).sort())
    // a wait on a cursor at the top row still wakes for what comes next
    const onTop = hub.wait({ since_event_id: all0.at(-1)!, from_agent: 'op', timeout_ms: 60_000 })
    await new Promise((r) => setTimeout(r, 300))
    await hub.append({ type: 'note', stream: 's', room: 'r', from_agent: 'op', body: 'mine 3' })
    expect((await onTop).events.map((e) => e.body)).toEqual(['mine 3'])
  }, 120_000)
})
