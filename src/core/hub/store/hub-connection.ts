/**
 * One hub file as Muster holds it: a read connection that never writes (`query_only`, no
 * migration, no journal-mode change) and a lazily opened write connection (the only path that
 * runs `ensureSchema`). Every SQLite failure becomes a clear ApiError: missing, locked, corrupt.
 * Connections wait for locks a few milliseconds at a time; `readAsync` and `write` retry with
 * `setTimeout` pauses up to the hub's timeout (`lock-retry.ts`), so the event loop stays free.
 */
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ApiError } from '../../../shared/api-error'
import type { Db } from '../../sqlite'
import { createHub, HUB_BUSY_TIMEOUT_MS, HUB_FILENAME, type Hub } from './schema'
import { ATTEMPT_BUSY_MS, isLockError, retryWhileLocked } from './lock-retry'
import { openHubReader, type ReaderMode } from './reader-open'
import { HubValidationError } from '../values/validate'

/** What a hub file has: older files lack columns, tables and indexes. */
export interface HubShape {
  hasEvents: boolean
  hasEventArtifacts: boolean
  columns: ReadonlySet<string>
  indexes: ReadonlySet<string>
}

/** Options of a hub connection. */
export interface HubConnectionOptions {
  /** How long a read or write waits for a locked hub before "hub is locked" (MemPalace: 10 s). */
  busyTimeoutMs?: number
}

/** Turns any error from a hub operation into an ApiError naming the file. */
export function hubError(err: unknown, file: string, timeoutMs = HUB_BUSY_TIMEOUT_MS): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof HubValidationError) return new ApiError(err.message, 'invalid_input')
  const code = (err as { code?: unknown }).code
  const message = err instanceof Error ? err.message : String(err)
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return new ApiError(`hub is locked: another process holds ${file} (gave up after ${timeoutMs} ms)`, 'conflict')
    }
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
      return new ApiError(`hub file ${file} is not a readable SQLite database (corrupt?): ${message}`, 'invalid_input')
    }
    if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'EACCES') {
      return new ApiError(`hub file ${file} is not writable: ${message}`, 'forbidden')
    }
    if (code.startsWith('SQLITE_CANTOPEN') || code === 'ENOENT') return new ApiError(`cannot open hub ${file}: ${message}`, 'not_found')
  }
  return new ApiError(`hub ${file}: ${message}`, 'internal')
}

/** A hub's read and write connections. Close it when done. */
export class HubConnection {
  /** The palace directory (absolute). */
  readonly palace: string
  /** `<palace>/logstream.sqlite3`. */
  readonly file: string
  private readonly timeoutMs: number
  private reader: Db | null = null
  private writer: Hub | null = null
  private shape: HubShape | null = null
  private shapeVersion = -1
  private readerMode: ReaderMode = 'normal'
  /** For an immutable reader: the file's size, mtime and journal presence when it was opened. */
  private readerPrint: string | null = null
  private generation = 0

  constructor(palace: string, opts: HubConnectionOptions = {}) {
    this.palace = resolve(palace)
    this.file = join(this.palace, HUB_FILENAME)
    this.timeoutMs = opts.busyTimeoutMs ?? HUB_BUSY_TIMEOUT_MS
  }

  /** True when the hub file exists. */
  exists(): boolean {
    return existsSync(this.file)
  }

  /**
   * The read connection (opened on first use; never creates, migrates or writes the file). In a
   * read-only folder it may be an immutable snapshot (`reader-open.ts`): that one is reopened as
   * soon as the file changes or a journal appears, so it never serves stale rows for long.
   */
  readDb(): Db {
    if (this.reader && this.readerStale()) this.closeReader()
    if (this.reader) return this.reader
    if (!this.exists()) throw new ApiError(`no hub at ${this.palace} (${HUB_FILENAME} does not exist)`, 'not_found')
    try {
      const { db, mode } = openHubReader(this.file)
      this.readerMode = mode
      this.readerPrint = mode === 'immutable' ? this.fingerprint() : null
      this.generation++
      return (this.reader = db)
    } catch (err) {
      if (isLockError(err)) throw err // the caller decides whether to wait and try again
      throw hubError(err, this.file, this.timeoutMs)
    }
  }

  /** How the read connection was opened (null until it is). */
  get readMode(): ReaderMode | null {
    return this.reader ? this.readerMode : null
  }

  /** Bumped whenever the read connection is (re)opened: per-connection counters restart then. */
  get readerGeneration(): number {
    return this.generation
  }

  private fingerprint(): string {
    const journal = [`${this.file}-wal`, `${this.file}-journal`].some((f) => existsSync(f))
    try {
      const st = statSync(this.file)
      return `${st.size}:${st.mtimeMs}:${journal}`
    } catch {
      return 'gone'
    }
  }

  private readerStale(): boolean {
    return this.readerPrint !== null && this.fingerprint() !== this.readerPrint
  }

  private closeReader(): void {
    this.reader?.close()
    this.reader = null
    this.readerPrint = null
  }

  /**
   * Runs a read at once, mapping errors (one short lock wait: for polls that simply try again
   * on their next tick, and for synchronous callers such as tests and the bench).
   */
  read<T>(fn: (db: Db, shape: HubShape) => T): T {
    try {
      return this.readRaw(fn)
    } catch (err) {
      throw hubError(err, this.file, this.timeoutMs)
    }
  }

  /** Runs a read, waiting (without blocking the event loop) while the hub is locked. */
  async readAsync<T>(fn: (db: Db, shape: HubShape) => T): Promise<T> {
    try {
      return await retryWhileLocked(() => this.readRaw(fn), this.timeoutMs)
    } catch (err) {
      throw hubError(err, this.file, this.timeoutMs)
    }
  }

  private readRaw<T>(fn: (db: Db, shape: HubShape) => T): T {
    const db = this.readDb()
    // One read transaction: every statement of the read sees the same WAL snapshot (a page and
    // its artifact ids agree), and the snapshot is taken once instead of per statement.
    return db.inTransaction ? fn(db, this.shapeOf(db)) : db.transaction(() => fn(db, this.shapeOf(db)))()
  }

  /**
   * Runs a write on the write connection (opened with `createHub`: WAL, schema brought to v4),
   * waiting without blocking while another process holds the lock. `fn` must write in one
   * `BEGIN IMMEDIATE` transaction: a locked attempt then wrote nothing and is repeated.
   */
  async write<T>(fn: (hub: Hub) => T): Promise<T> {
    try {
      return await retryWhileLocked(() => {
        if (!this.writer) this.writer = createHub(this.palace, { busyTimeoutMs: ATTEMPT_BUSY_MS })
        return fn(this.writer)
      }, this.timeoutMs)
    } catch (err) {
      throw hubError(err, this.file, this.timeoutMs)
    }
  }

  /** Columns/tables/indexes of the file, re-read whenever its schema changes (another writer migrated it). */
  shapeOf(db: Db): HubShape {
    const version = db.pragma('schema_version', { simple: true }) as number
    if (this.shape && version === this.shapeVersion) return this.shape
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name)
    )
    const indexes = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name)
    )
    const columns = tables.has('events')
      ? new Set((db.prepare('PRAGMA table_info(events)').all() as { name: string }[]).map((r) => r.name))
      : new Set<string>()
    this.shape = { hasEvents: tables.has('events'), hasEventArtifacts: tables.has('event_artifacts'), columns, indexes }
    this.shapeVersion = version
    return this.shape
  }

  /** Closes both connections. */
  close(): void {
    this.closeReader()
    this.writer?.close()
    this.writer = null
  }
}
