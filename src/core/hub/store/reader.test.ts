import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { openDatabase } from '../../sqlite'
import { HubConnection } from './hub-connection'
import { listEvents, previewEvent } from './reader'
import { createHub } from './schema'
import { appendEvent, putArtifact } from './writer'
import { ENVELOPE_KEYS } from '../../../../test/helpers/hub-envelope'

const open: HubConnection[] = []
afterEach(() => {
  while (open.length) open.pop()!.close()
})
const conn = (palace: string, busyTimeoutMs?: number): HubConnection => {
  const c = new HubConnection(palace, { busyTimeoutMs })
  open.push(c)
  return c
}

/** A hub with a few routed events: to X, broadcast, NULL, to Y. */
function sample(): { palace: string; ids: string[] } {
  const palace = join(tmpDir(), 'palace')
  const hub = createHub(palace)
  const base = { stream: 'project/muse', room: 'rooms' }
  const ids = [
    appendEvent(hub.db, hub.replicaId, { ...base, type: 'chat.message', from_agent: 'a', to_agent: 'x', body: 'to x' }),
    appendEvent(hub.db, hub.replicaId, { ...base, type: 'status', from_agent: 'b', to_agent: '*', body: 'broadcast', room: 'status' }),
    appendEvent(hub.db, hub.replicaId, { ...base, type: 'chat.message', from_agent: 'x', to_agent: null, body: 'nobody' }),
    appendEvent(hub.db, hub.replicaId, {
      ...base,
      type: 'task.request',
      from_agent: 'x',
      to_agent: 'y',
      body: 'to y',
      topic: 'hub',
      status: 'open',
      correlation_id: 'task_a_00000001'
    })
  ].map((e) => e.id)
  hub.close()
  return { palace, ids }
}

describe('listEvents', () => {
  it('returns envelopes in upstream key order, asc by default, desc on request', () => {
    const { palace, ids } = sample()
    const page = listEvents(conn(palace))
    expect(page.events.map((e) => e.id)).toEqual(ids)
    expect(Object.keys(page.events[0]!)).toEqual(ENVELOPE_KEYS)
    expect(listEvents(conn(palace), { order: 'desc' }).events.map((e) => e.id)).toEqual([...ids].reverse())
  })

  it('to_agent matches the agent or the * broadcast; NULL never matches', () => {
    const { palace, ids } = sample()
    const c = conn(palace)
    expect(listEvents(c, { to_agent: 'x' }).events.map((e) => e.id)).toEqual([ids[0], ids[1]])
    expect(listEvents(c, { to_agent: 'y' }).events.map((e) => e.id)).toEqual([ids[1], ids[3]])
    expect(listEvents(c, { to_agent: 'nobody-at-all' }).events.map((e) => e.id)).toEqual([ids[1]])
    expect(listEvents(c, { to_agent: 'x', exclude_from_agent: 'b' }).events.map((e) => e.id)).toEqual([ids[0]])
  })

  it('filters by every field, body text, and since_created_at inclusively', () => {
    const { palace, ids } = sample()
    const c = conn(palace)
    expect(listEvents(c, { type: 'chat.message', from_agent: 'x' }).events.map((e) => e.id)).toEqual([ids[2]])
    expect(
      listEvents(c, { topic: 'hub', status: 'open', correlation_id: 'task_a_00000001', room: 'rooms', stream: 'project/muse' }).events.map(
        (e) => e.id
      )
    ).toEqual([ids[3]])
    expect(listEvents(c, { type: ['status', 'task.request'] }).events).toHaveLength(2)
    expect(listEvents(c, { text: 'BROAD' }).events.map((e) => e.id)).toEqual([ids[1]])
    expect(listEvents(c, { text: '%' }).events).toHaveLength(0)
    expect(listEvents(c, { since_created_at: '2000-01-01T00:00:00Z' }).events).toHaveLength(4)
    expect(listEvents(c, { since_created_at: '2999-01-01T00:00:00Z' }).events).toHaveLength(0)
  })

  it('cursors are exclusive rowid bounds; unknown anchors fail with the upstream message', () => {
    const { palace, ids } = sample()
    const c = conn(palace)
    expect(listEvents(c, { since_event_id: ids[1] }).events.map((e) => e.id)).toEqual([ids[2], ids[3]])
    expect(listEvents(c, { before_event_id: ids[2], order: 'desc' }).events.map((e) => e.id)).toEqual([ids[1], ids[0]])
    expect(listEvents(c, { since_event_id: ids[0], before_event_id: ids[3] }).events.map((e) => e.id)).toEqual([ids[1], ids[2]])
    expect(() => listEvents(c, { since_event_id: 'evt_nope' })).toThrow("since_event_id 'evt_nope' not found")
    expect(() => listEvents(c, { before_event_id: 'evt_nope' })).toThrow("before_event_id 'evt_nope' not found")
  })

  it('limit defaults to 50 and clamps to 500; has_more tells about the next page', () => {
    const palace = join(tmpDir(), 'palace')
    const hub = createHub(palace)
    hub.db.transaction(() => {
      for (let i = 0; i < 620; i++)
        appendEvent(hub.db, hub.replicaId, { type: 'chat.message', stream: 's', room: 'r', from_agent: 'a', body: `m${i}` })
    })()
    hub.close()
    const c = conn(palace)
    expect(listEvents(c).events).toHaveLength(50)
    const big = listEvents(c, { limit: 10_000 })
    expect(big.events).toHaveLength(500)
    expect(big.has_more).toBe(true)
    expect(listEvents(c, { limit: 0 }).events).toHaveLength(1)
    const last = listEvents(c, { since_event_id: big.events[499]!.id, limit: 500 })
    expect(last.events).toHaveLength(120)
    expect(last.has_more).toBe(false)
  })

  it('preview cuts bodies over 200 characters (code points) and says so', () => {
    const body = '😀'.repeat(250)
    const e = previewEvent({ body } as never)
    expect(e).toMatchObject({ body_truncated: true, body_length: 250 })
    expect(Array.from(e.body)).toHaveLength(200)
    const short = previewEvent({ body: 'é'.repeat(200) } as never)
    expect(short.body_truncated).toBeUndefined()
  })

  it('lists artifact ids ordered by id, from event_artifacts', () => {
    const palace = join(tmpDir(), 'palace')
    const hub = createHub(palace)
    const a = putArtifact(hub.db, hub.replicaId, { kind: 'note', content: 'one', created_by: 'a' })
    const b = putArtifact(hub.db, hub.replicaId, { kind: 'note', content: 'two', created_by: 'a' })
    const e = appendEvent(hub.db, hub.replicaId, { type: 'note', stream: 's', room: 'r', from_agent: 'a', artifact_ids: [b.id, a.id] })
    hub.close()
    expect(listEvents(conn(palace)).events[0]!.artifact_ids).toEqual([a.id, b.id].sort())
    expect(e.artifact_ids).toEqual([a.id, b.id].sort())
  })
})

describe('older hub files', () => {
  /** Creates a hub file with an older schema (v1: no topic, no replication columns, no read_cursors). */
  function legacy(version: 1 | 2 | 3): string {
    const palace = join(tmpDir(), `v${version}`)
    const hub = createHub(palace) // for replica.json + dir; then replace the file
    hub.close()
    for (const f of ['logstream.sqlite3', 'logstream.sqlite3-wal', 'logstream.sqlite3-shm']) writeFileSync(join(palace, f), '')
    const db = openDatabase(join(palace, 'logstream.sqlite3'))
    const topic = version >= 3 ? 'topic TEXT,' : ''
    const repl = version >= 2 ? ', origin_replica TEXT, origin_seq INTEGER, hlc TEXT' : ''
    db.exec(`CREATE TABLE events (id TEXT PRIMARY KEY, type TEXT NOT NULL, stream TEXT NOT NULL, room TEXT NOT NULL, ${topic}
      from_agent TEXT NOT NULL, to_agent TEXT, correlation_id TEXT, branch TEXT, base_commit TEXT, status TEXT,
      body TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}', legacy_extra TEXT ${repl});
      CREATE INDEX events_type_idx ON events(type, created_at);
      CREATE TABLE artifacts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, sha256 TEXT NOT NULL, size_bytes INTEGER NOT NULL,
      content TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}');
      CREATE TABLE event_artifacts (event_id TEXT NOT NULL, artifact_id TEXT NOT NULL, PRIMARY KEY (event_id, artifact_id));
      INSERT INTO events (id, type, stream, room, from_agent, to_agent, body, created_at, metadata_json, legacy_extra)
      VALUES ('evt_20250101T000000_000000000001', 'chat.message', 's', 'r', 'old', '*', 'hello', '2025-01-01T00:00:00Z', 'not json', 'x')`)
    db.close()
    return palace
  }

  for (const v of [1, 2, 3] as const) {
    it(`v${v}: reads without writing (nulls for missing columns), a write adds the columns`, async () => {
      const palace = legacy(v)
      const file = join(palace, 'logstream.sqlite3')
      const before = createHash('sha256').update(readFileSync(file)).digest('hex')
      const c = conn(palace)
      const [e] = listEvents(c, { to_agent: 'me' }).events
      expect(e).toMatchObject({
        id: 'evt_20250101T000000_000000000001',
        topic: null,
        hlc: null,
        origin_seq: null,
        metadata: {},
        artifact_ids: []
      })
      expect(Object.keys(e!)).not.toContain('legacy_extra')
      expect(listEvents(c, { topic: 'anything' }).events).toEqual([])
      c.close()
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before)
      const w = conn(palace)
      const written = await w.write((hub) =>
        appendEvent(hub.db, hub.replicaId, { type: 'chat.message', stream: 's', room: 'r', from_agent: 'new', topic: 't' })
      )
      expect(written.topic).toBe('t')
      const all = listEvents(w).events
      expect(all.map((x) => x.from_agent)).toEqual(['old', 'new'])
      expect(all[1]!.hlc).toMatch(/^\d{13}-/)
    })
  }
})

describe('hub connection errors', () => {
  it('a missing hub is not_found; a non-SQLite file is a clear error, not a crash', async () => {
    const palace = join(tmpDir(), 'palace')
    expect(() => listEvents(conn(palace))).toThrow(/no hub at .*logstream\.sqlite3 does not exist/)
    const bad = tmpDir()
    writeFileSync(join(bad, 'logstream.sqlite3'), 'this is not a database, just text '.repeat(200))
    expect(() => listEvents(conn(bad))).toThrow(/is not a readable SQLite database \(corrupt\?\)/)
    await expect(conn(bad).write(() => 1)).rejects.toThrow(/not a readable SQLite database|corrupt/)
  })

  it('a write to a hub held by another BEGIN IMMEDIATE fails after the timeout with "hub is locked"', async () => {
    const palace = join(tmpDir(), 'palace')
    createHub(palace).close()
    const holder = openDatabase(join(palace, 'logstream.sqlite3'))
    holder.exec('BEGIN IMMEDIATE')
    try {
      const c = conn(palace, 150)
      const t = Date.now()
      await expect(
        c.write((hub) => appendEvent(hub.db, hub.replicaId, { type: 'x', stream: 's', room: 'r', from_agent: 'a' }))
      ).rejects.toThrow(/^hub is locked: another process holds .*logstream\.sqlite3 \(gave up after 150 ms\)$/)
      expect(Date.now() - t).toBeGreaterThanOrEqual(140)
      expect(listEvents(c).events).toEqual([]) // reads still work (WAL)
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
    }
  })
})
