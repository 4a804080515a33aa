import { describe, it, expect, afterEach } from 'vitest'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../sqlite'
import { createHub, ensureSchema, readOrCreateReplicaId } from './schema'
import { appendEvent, listEvents } from './writer'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'muster-hub-schema-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true })
})

const columns = (db: ReturnType<typeof openDatabase>, table: string) =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((r) => r.name)

describe('createHub', () => {
  it('creates the palace dir (0700), replica.json and a WAL hub with the v4 schema', () => {
    const palace = join(tmp(), 'nested', 'palace')
    const hub = createHub(palace)
    try {
      if (process.platform !== 'win32') expect(statSync(palace).mode & 0o777).toBe(0o700)
      const replica = JSON.parse(readFileSync(join(palace, 'replica.json'), 'utf8'))
      expect(Object.keys(replica)).toEqual(['replica_id'])
      expect(replica.replica_id).toMatch(/^rep_[0-9a-f]{32}$/)
      expect(hub.replicaId).toBe(replica.replica_id)
      expect(hub.file).toBe(join(palace, 'logstream.sqlite3'))
      expect(hub.db.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(hub.db.pragma('busy_timeout', { simple: true })).toBe(10000)
      expect(columns(hub.db, 'events')).toEqual([
        'id',
        'type',
        'stream',
        'room',
        'topic',
        'from_agent',
        'to_agent',
        'correlation_id',
        'branch',
        'base_commit',
        'status',
        'body',
        'created_at',
        'metadata_json',
        'origin_replica',
        'origin_seq',
        'hlc'
      ])
      expect(columns(hub.db, 'artifacts')).toContain('origin_replica')
      expect(columns(hub.db, 'read_cursors')).toEqual(['scope', 'agent', 'last_seq', 'updated_at'])
      const indexes = (
        hub.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'").all() as {
          name: string
        }[]
      ).map((r) => r.name)
      expect(indexes.sort()).toEqual([
        'artifacts_sha256_idx',
        'events_correlation_idx',
        'events_hlc_idx',
        'events_origin_seq_idx',
        'events_stream_created_idx',
        'events_to_agent_idx',
        'events_topic_created_idx',
        'events_type_idx'
      ])
    } finally {
      hub.close()
    }
  })

  it('never mints a second replica id', () => {
    const palace = tmp()
    const first = createHub(palace)
    first.close()
    const second = createHub(palace)
    second.close()
    expect(second.replicaId).toBe(first.replicaId)
    writeFileSync(join(palace, 'replica.json'), '{"replica_id": "rep_0123456789ab", "minted_at_note": "RFC 004 step 0"}\n')
    expect(readOrCreateReplicaId(palace)).toBe('rep_0123456789ab') // upstream's 12-hex ids are kept
    writeFileSync(join(palace, 'replica.json'), '{"replica_id": "bogus"}')
    expect(() => createHub(palace)).toThrow(/refusing to mint a second identity/)
    writeFileSync(join(palace, 'replica.json'), '{not json')
    expect(() => readOrCreateReplicaId(palace)).toThrow(/corrupt/)
  })
})

describe('ensureSchema', () => {
  it('migrates a v1 file additively and keeps its rows and unknown columns', () => {
    const palace = tmp()
    const file = join(palace, 'logstream.sqlite3')
    const db = openDatabase(file)
    db.exec(`CREATE TABLE events (id TEXT PRIMARY KEY, type TEXT NOT NULL, stream TEXT NOT NULL, room TEXT NOT NULL,
      from_agent TEXT NOT NULL, to_agent TEXT, correlation_id TEXT, branch TEXT, base_commit TEXT, status TEXT,
      body TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}', extra_col TEXT);
      CREATE TABLE artifacts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, sha256 TEXT NOT NULL, size_bytes INTEGER NOT NULL,
      content TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}');
      CREATE TABLE event_artifacts (event_id TEXT NOT NULL, artifact_id TEXT NOT NULL, PRIMARY KEY (event_id, artifact_id));`)
    db.prepare(
      "INSERT INTO events (id, type, stream, room, from_agent, created_at, extra_col) VALUES ('evt_20260101T000000_aaaaaaaaaaaa', 'note', 's', 'r', 'a', '2026-01-01T00:00:00Z', 'x')"
    ).run()
    const changes = ensureSchema(db)
    expect(changes.addedColumns).toEqual([
      'events.topic',
      'events.origin_replica',
      'events.origin_seq',
      'events.hlc',
      'artifacts.origin_replica'
    ])
    expect(changes.createdTables).toEqual(['read_cursors'])
    expect(columns(db, 'events')).toContain('extra_col')
    expect(ensureSchema(db)).toEqual({ addedColumns: [], createdTables: [] }) // idempotent
    const ev = appendEvent(db, 'rep_0123456789ab', { type: 'note', stream: 's', room: 'r', from_agent: 'b' })
    expect(ev.seq).toBe(2)
    const [legacy, fresh] = listEvents(db)
    expect(legacy!.origin_replica).toBeNull()
    expect(legacy!.hlc).toBeNull()
    expect(fresh!.origin_seq).toBe(2)
    db.close()
  })

  it('adds topic to a v2 file (replication columns present, no topic, no read_cursors)', () => {
    const db = openDatabase(join(tmp(), 'logstream.sqlite3'))
    db.exec(`CREATE TABLE events (id TEXT PRIMARY KEY, type TEXT NOT NULL, stream TEXT NOT NULL, room TEXT NOT NULL,
      from_agent TEXT NOT NULL, to_agent TEXT, correlation_id TEXT, branch TEXT, base_commit TEXT, status TEXT,
      body TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}',
      origin_replica TEXT, origin_seq INTEGER, hlc TEXT)`)
    const changes = ensureSchema(db)
    expect(changes.addedColumns).toEqual(['events.topic'])
    expect(changes.createdTables.sort()).toEqual(['artifacts', 'event_artifacts', 'read_cursors'])
    db.close()
  })
})
