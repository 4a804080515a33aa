/**
 * The hub file's schema (MemPalace logstream v4, spec/hub-logstream.md section 2), creating a
 * palace, its replica identity, and additive migrations of older files (v1-v3). The hub is never
 * VACUUMed: its implicit rowid is every reader's cursor and VACUUM may renumber it.
 */
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { makeDirSync } from '../../make-dir'
import { openDatabase, type Db } from '../../sqlite'
import { newReplicaId, REPLICA_ID_RE } from '../values/ids'

/** The hub's file name inside a palace directory. */
export const HUB_FILENAME = 'logstream.sqlite3'
/** The replica identity file inside a palace directory. */
export const REPLICA_FILENAME = 'replica.json'
/** MemPalace waits up to 10 s for a locked hub. */
export const HUB_BUSY_TIMEOUT_MS = 10_000

/** The v4 tables, verbatim from the spec (`IF NOT EXISTS`, so they are safe on any version). */
export const HUB_TABLES_SQL = [
  `CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY, type TEXT NOT NULL, stream TEXT NOT NULL, room TEXT NOT NULL,
  topic TEXT, from_agent TEXT NOT NULL, to_agent TEXT, correlation_id TEXT,
  branch TEXT, base_commit TEXT, status TEXT, body TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}',
  origin_replica TEXT, origin_seq INTEGER, hlc TEXT)`,
  `CREATE TABLE IF NOT EXISTS artifacts (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, sha256 TEXT NOT NULL, size_bytes INTEGER NOT NULL,
  content TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL,
  metadata_json TEXT NOT NULL DEFAULT '{}', origin_replica TEXT)`,
  `CREATE TABLE IF NOT EXISTS event_artifacts (
  event_id TEXT NOT NULL, artifact_id TEXT NOT NULL, PRIMARY KEY (event_id, artifact_id))`,
  `CREATE TABLE IF NOT EXISTS read_cursors (
  scope TEXT NOT NULL, agent TEXT NOT NULL, last_seq INTEGER NOT NULL,
  updated_at TEXT NOT NULL, PRIMARY KEY (scope, agent))`
] as const

/** The v4 indexes, verbatim; created after the columns they need exist. */
export const HUB_INDEXES_SQL = [
  'CREATE INDEX IF NOT EXISTS events_stream_created_idx ON events(stream, created_at)',
  'CREATE INDEX IF NOT EXISTS events_correlation_idx   ON events(correlation_id, created_at)',
  'CREATE INDEX IF NOT EXISTS events_to_agent_idx      ON events(to_agent, created_at)',
  'CREATE INDEX IF NOT EXISTS events_type_idx          ON events(type, created_at)',
  'CREATE INDEX IF NOT EXISTS events_topic_created_idx ON events(topic, created_at)',
  'CREATE UNIQUE INDEX IF NOT EXISTS events_origin_seq_idx ON events(origin_replica, origin_seq)',
  'CREATE INDEX IF NOT EXISTS events_hlc_idx ON events(hlc)',
  'CREATE INDEX IF NOT EXISTS artifacts_sha256_idx ON artifacts(sha256)'
] as const

/** Columns added since v1, per table, in the order upstream's migration adds them. */
const ADDED_COLUMNS: ReadonlyArray<readonly [table: string, column: string, type: string]> = [
  ['events', 'topic', 'TEXT'],
  ['events', 'origin_replica', 'TEXT'],
  ['events', 'origin_seq', 'INTEGER'],
  ['events', 'hlc', 'TEXT'],
  ['artifacts', 'origin_replica', 'TEXT']
]

/** What `ensureSchema` changed: `table.column` names added, table names created. */
export interface SchemaChanges {
  addedColumns: string[]
  createdTables: string[]
}

function tableNames(db: Db): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
  return new Set(rows.map((r) => r.name))
}

function columnNames(db: Db, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]
  return new Set(rows.map((r) => r.name))
}

/**
 * Brings a hub file to the v4 schema: creates missing tables, adds missing columns with
 * `ALTER TABLE ... ADD COLUMN`, creates missing indexes, all in one transaction. Additive only:
 * existing rows are not rewritten (legacy rows keep NULL `origin_replica`/`origin_seq`/`hlc`),
 * unknown extra columns are left alone, and the file is never VACUUMed.
 */
export function ensureSchema(db: Db): SchemaChanges {
  const changes: SchemaChanges = { addedColumns: [], createdTables: [] }
  db.transaction(() => {
    const before = tableNames(db)
    for (const sql of HUB_TABLES_SQL) db.exec(sql)
    for (const name of tableNames(db)) if (!before.has(name)) changes.createdTables.push(name)
    for (const [table, column, type] of ADDED_COLUMNS) {
      if (!columnNames(db, table).has(column)) {
        db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`)
        changes.addedColumns.push(`${table}.${column}`)
      }
    }
    for (const sql of HUB_INDEXES_SQL) db.exec(sql)
  }).immediate()
  return changes
}

/**
 * Reads the palace's replica id, minting `{"replica_id": "rep_<32 hex>"}` if the file is absent.
 * A present but corrupt or foreign-shaped file is an error: minting a second identity for one
 * palace would fork its provenance. Minting is atomic and never overwrites a concurrent mint.
 */
export function readOrCreateReplicaId(palaceDir: string): string {
  return readReplicaId(palaceDir) ?? mintReplicaId(palaceDir)
}

/** The palace's replica id, or null when `replica.json` is absent; a corrupt file is an error. */
export function readReplicaId(palaceDir: string): string | null {
  const file = join(palaceDir, REPLICA_FILENAME)
  if (!existsSync(file)) return null
  return parseReplicaFile(file)
}

/** Mints `replica.json` unless another writer got there first; returns the id on file. */
function mintReplicaId(palaceDir: string): string {
  const file = join(palaceDir, REPLICA_FILENAME)
  if (!existsSync(file)) {
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
    writeFileSync(tmp, JSON.stringify({ replica_id: newReplicaId() }, null, 2) + '\n', { mode: 0o600 })
    try {
      linkSync(tmp, file) // fails with EEXIST if another writer minted first: theirs wins
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      unlinkSync(tmp)
    }
  }
  return parseReplicaFile(file)
}

function parseReplicaFile(file: string): string {
  let id: unknown
  try {
    id = (JSON.parse(readFileSync(file, 'utf8')) as { replica_id?: unknown }).replica_id
  } catch (err) {
    throw new Error(`${file} is corrupt (${(err as Error).message}); refusing to mint a second replica identity for this palace`)
  }
  if (typeof id !== 'string' || !REPLICA_ID_RE.test(id)) {
    throw new Error(`${file} holds an invalid replica_id ${JSON.stringify(id)}; refusing to mint a second identity`)
  }
  return id
}

/** An open hub file (logstream.sqlite3): the connection plus where it lives and who this replica is. Not the port (`HubPort`). */
export interface HubFile {
  db: Db
  replicaId: string
  palaceDir: string
  /** `<palace>/logstream.sqlite3`. */
  file: string
  close(): void
}

/**
 * Creates (or opens) the hub in `palaceDir`: the directory with mode 0700, `replica.json`, and
 * `logstream.sqlite3` in WAL mode with a 10 s busy timeout (tests pass a shorter one) and the v4 schema.
 * Refusals come first and change nothing: a corrupt `replica.json` or hub file, or a hub locked
 * by another writer, fails before the replica id is minted or the folder's mode is touched.
 */
export function createHub(palaceDir: string, opts: { busyTimeoutMs?: number } = {}): HubFile {
  const dir = resolve(palaceDir)
  const known = readReplicaId(dir) // a corrupt replica.json refuses before anything is created
  makeDirSync(dir, { mode: 0o700 })
  const file = join(dir, HUB_FILENAME)
  const db = openDatabase(file, { busyTimeoutMs: opts.busyTimeoutMs ?? HUB_BUSY_TIMEOUT_MS })
  let replicaId: string
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get() // "file is not a database" before any change
    db.pragma('journal_mode = WAL')
    ensureSchema(db) // BEGIN IMMEDIATE: a locked hub stops here
    replicaId = known ?? mintReplicaId(dir)
  } catch (err) {
    db.close()
    throw err
  }
  try {
    chmodSync(dir, 0o700) // as MemPalace does on open
  } catch {
    // not ours to change (or a platform without POSIX modes): MemPalace ignores this too
  }
  return { db, replicaId, palaceDir: dir, file, close: () => db.close() }
}
