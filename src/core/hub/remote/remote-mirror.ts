/**
 * The local replica of a remote hub: a logstream file in Muster's home (`hub-mirrors/<key>/`, mode
 * 0700) holding exactly the events the server streamed, each at its server `seq` (rowid = seq),
 * with its artifact links. Rows only ever arrive in the server's order from one cursor, so the
 * file is a gap-free prefix of the remote stream and every read of a local hub (list, threads,
 * tasks, presence, inbox, overview, live tail) runs on it unchanged. Artifacts are not copied
 * (fetched from the server on demand). Writes wait for a lock without blocking the event loop.
 */
import { chmodSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { makeDirSync } from '../../make-dir'
import { openDatabase, type Db } from '../../sqlite'
import { pyJsonDumps } from '../values/ids'
import { ATTEMPT_BUSY_MS, retryWhileLocked } from '../store/lock-retry'
import { ensureSchema, HUB_FILENAME } from '../store/schema'
import { toEnvelope } from '../store/writer'

/** The folder of mirrors inside Muster's home. */
export const MIRRORS_DIR = 'hub-mirrors'
/** How long a mirror write waits for another Muster process (CLI and app share the mirror). */
const WRITE_TIMEOUT_MS = 10_000

const Text = z.string()
const Opt = z.string().nullable().optional()

/**
 * An event envelope as a hub server sends it. Older hubs (v1-v3) omit `topic` and the
 * replication fields; they read as null, like a local file's missing columns.
 */
export const RemoteEventSchema = z.object({
  id: Text.min(1),
  seq: z.number().int().positive(),
  origin_replica: Opt,
  origin_seq: z.number().int().nullable().optional(),
  hlc: Opt,
  type: Text,
  stream: Text,
  room: Text,
  topic: Opt,
  from_agent: Text,
  to_agent: Opt,
  correlation_id: Opt,
  branch: Opt,
  base_commit: Opt,
  status: Opt,
  artifact_ids: z.array(Text).optional(),
  body: Text,
  created_at: Text,
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  /** Exact metadata text beside a lossy plain value (remote-json.ts). */
  metadata_json: z.string().optional()
})

/** A server envelope as Muster's envelope (upstream key order, nulls for what an older hub lacks). */
export function toHubEvent(raw: unknown): HubEvent {
  const e = RemoteEventSchema.parse(raw)
  return toEnvelope({ ...e, metadata: e.metadata ?? {} })
}

/** One remote hub's mirror file. */
export class HubMirror {
  /** The folder holding the mirror's `logstream.sqlite3` (a palace, for the local readers). */
  readonly dir: string
  private db: Db | null = null

  constructor(home: string, key: string) {
    this.dir = join(home, MIRRORS_DIR, key)
  }

  /** Creates the folder and the file with the hub schema (idempotent). */
  open(): Db {
    if (this.db) return this.db
    makeDirSync(this.dir, { mode: 0o700 })
    chmodSync(this.dir, 0o700)
    const db = openDatabase(join(this.dir, HUB_FILENAME), { busyTimeoutMs: ATTEMPT_BUSY_MS })
    try {
      db.pragma('journal_mode = WAL')
      ensureSchema(db)
    } catch (err) {
      db.close()
      throw err
    }
    return (this.db = db)
  }

  /** True once the mirror file exists. */
  exists(): boolean {
    return existsSync(join(this.dir, HUB_FILENAME))
  }

  /** The newest mirrored event (the stream cursor), or null when nothing is mirrored yet. */
  tip(): { seq: number; id: string } | null {
    const row = this.open().prepare('SELECT rowid AS seq, id FROM events ORDER BY rowid DESC LIMIT 1').get() as
      { seq: number; id: string } | undefined
    return row ?? null
  }

  /** Stores streamed events at their server seq (one transaction; an event already there is kept). */
  insert(events: readonly HubEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve()
    const db = this.open()
    const row = db.prepare(
      `INSERT OR IGNORE INTO events (rowid, id, type, stream, room, topic, from_agent, to_agent, correlation_id, branch,
         base_commit, status, body, created_at, metadata_json, origin_replica, origin_seq, hlc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    const link = db.prepare('INSERT OR IGNORE INTO event_artifacts (event_id, artifact_id) VALUES (?, ?)')
    const write = db.transaction(() => {
      for (const e of events) {
        row.run(
          e.seq,
          e.id,
          e.type,
          e.stream,
          e.room,
          e.topic,
          e.from_agent,
          e.to_agent,
          e.correlation_id,
          e.branch,
          e.base_commit,
          e.status,
          e.body,
          e.created_at,
          e.metadata_json ?? pyJsonDumps(e.metadata),
          e.origin_replica,
          e.origin_seq,
          e.hlc
        )
        for (const a of e.artifact_ids) link.run(e.id, a)
      }
    })
    return retryWhileLocked(() => write.immediate(), WRITE_TIMEOUT_MS)
  }

  /** Forgets every mirrored event (the server no longer knows our cursor: another hub is there now). */
  reset(): Promise<void> {
    const db = this.open()
    return retryWhileLocked(
      () => db.transaction(() => void db.exec('DELETE FROM event_artifacts; DELETE FROM events;')).immediate(),
      WRITE_TIMEOUT_MS
    )
  }

  /** Closes the write connection. */
  close(): void {
    this.db?.close()
    this.db = null
  }

  /** Deletes the mirror (its hub was removed from Muster). */
  destroy(): void {
    this.close()
    rmSync(this.dir, { recursive: true, force: true })
  }
}
