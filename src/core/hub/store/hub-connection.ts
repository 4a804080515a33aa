/**
 * One hub file as Muster holds it: a read connection that never writes (`query_only`, no
 * migration, no journal-mode change) and a lazily opened write connection (the only path that
 * runs `ensureSchema`). Every SQLite failure becomes a clear ApiError: missing, locked, corrupt.
 * Connections wait for locks a few milliseconds at a time; `readAsync` and `write` retry with
 * `setTimeout` pauses up to the hub's timeout (`lock-retry.ts`), so the event loop stays free.
 * Before every read and write (and after every write) the path is checked to still name the file
 * the connections hold (`hub-identity.ts`): a replaced hub is reopened, a deleted, emptied or
 * corrupt one takes no writes, and a write whose file was swapped out meanwhile is not acknowledged.
 */
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ApiError } from '../../../shared/api-error'
import type { Db } from '../../sqlite'
import { createHub, HUB_BUSY_TIMEOUT_MS, HUB_FILENAME, type HubFile } from './schema'
import { ATTEMPT_BUSY_MS, isLockError, retryWhileLocked } from './lock-retry'
import { openHubReader, type ReaderMode } from './reader-open'
import { HubValidationError } from '../values/validate'
import { hasSqliteHeader, identityOf, retire, setAsideWal, type FileIdentity } from './hub-identity'

/** The real `setImmediate` (tests that fake timers must not stall the hub's reads). */
const immediate = setImmediate
/** Resolves on the next turn of the event loop, after pending I/O callbacks. */
const nextTurn = (): Promise<void> => new Promise((resolve) => immediate(resolve))

/** What a hub file has: older files lack columns, tables and indexes. */
export interface HubShape {
  hasEvents: boolean
  hasEventArtifacts: boolean
  columns: ReadonlySet<string>
  indexes: ReadonlySet<string>
}

/** Runs one read in a read transaction of its own (`HubConnection.readAsync`): folds made of several reads take it. */
export type ReadStep = <T>(fn: (db: Db, shape: HubShape) => T) => Promise<T>

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

/** True for an error that says the file is not a readable database (SQLite's, or a failed `quick_check`). */
function isCorrupt(err: unknown): boolean {
  const code = (err as { code?: unknown }).code
  if (typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))) return true
  return err instanceof ApiError && err.code === 'invalid_input' && /not a readable SQLite database/.test(err.message)
}

/** A hub's read and write connections. Close it when done. */
export class HubConnection {
  /** The palace directory (absolute). */
  readonly palace: string
  /** `<palace>/logstream.sqlite3`. */
  readonly file: string
  private readonly timeoutMs: number
  private reader: Db | null = null
  private writer: HubFile | null = null
  private shape: HubShape | null = null
  private shapeVersion = -1
  private readerMode: ReaderMode = 'normal'
  /** For an immutable reader: the file's size, mtime and journal presence when it was opened. */
  private readerPrint: string | null = null
  private generation = 0
  /** The file the connections are open on (device, inode, last size seen); null while none is. */
  private held: FileIdentity | null = null
  /** The file was deleted while connections were open on it (writes refused until a file is back). */
  private gone = false
  /** Identity of the last file seen holding data (an emptied one is refused, a new empty one is not). */
  private sawContent: string | null = null
  /** The file (identity, size, mtime) when it last answered as corrupt and the connections were retired for it. */
  private corruptPrint: string | null = null
  /** Size and mtime of the file when `quick_check` last passed on the write connection. */
  private verified: string | null = null
  private fileGen = 0
  /** Identity of the `-wal` file when the connections opened (null: none seen). */
  private walId: string | null = null
  /** The last read queued: the next one starts after it, on a later turn of the event loop. */
  private readTurn: Promise<void> = Promise.resolve()

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
    this.guard()
    if (this.reader && this.readerStale()) this.closeReader()
    if (this.reader) return this.reader
    if (!this.exists()) throw new ApiError(`no hub at ${this.palace} (${HUB_FILENAME} does not exist)`, 'not_found')
    try {
      const { db, mode } = openHubReader(this.file)
      this.readerMode = mode
      this.readerPrint = mode === 'immutable' ? this.fingerprint() : null
      this.generation++
      this.noteHeld()
      return (this.reader = db)
    } catch (err) {
      if (isLockError(err)) throw err // the caller decides whether to wait and try again
      throw hubError(err, this.file, this.timeoutMs)
    }
  }

  /** Bumped whenever the path stops naming the file the connections held (replaced, deleted, rewritten in place). */
  get fileGeneration(): number {
    return this.fileGen
  }

  /**
   * Checks that the path still names the file the connections hold. A different file (replaced
   * by rename) or a shorter one (rewritten in place: the main file of a WAL hub never shrinks)
   * retires the connections, so the next use opens the file that is the hub now; a missing
   * file marks the hub gone.
   */
  private guard(): FileIdentity | null {
    const now = identityOf(this.file)
    if (now && now.size > 0) this.sawContent = now.id
    if (!now) {
      if (this.held) {
        this.retireConnections()
        this.gone = true
      }
      return null
    }
    this.gone = false
    // a shorter file with the same inode was rewritten in place (a WAL hub's main file never shrinks)
    if (this.held && now.id !== this.held.id) this.retireConnections()
    else if (this.held && now.size < this.held.size) this.retireConnections(true)
    else if (this.held) {
      this.held = now
      this.walId ??= identityOf(`${this.file}-wal`)?.id ?? null
    }
    return now
  }

  /** Records the file (and its `-wal`) the connections were just opened on. */
  private noteHeld(): void {
    if (this.held) return
    this.held = identityOf(this.file)
    this.walId = identityOf(`${this.file}-wal`)?.id ?? null
  }

  /** An explicit create after the hub was deleted: the next write may make a new file. */
  allowRecreate(): void {
    this.gone = false
  }

  /**
   * Leaves the connections on a file that is no longer the hub (never closed: see hub-identity.ts);
   * `sameFile`: the file at the path is the one they hold, rewritten in place.
   */
  private retireConnections(sameFile = false): void {
    retire(this.reader)
    retire(this.writer?.db)
    setAsideWal(this.file, this.walId, sameFile)
    this.walId = null
    this.reader = null
    this.writer = null
    this.readerPrint = null
    this.shape = null
    this.shapeVersion = -1
    this.held = null
    this.verified = null
    this.generation++
    this.fileGen++
  }

  /** Why a write must not go into the file at the path now, or null when it may. */
  private writeRefusal(now: FileIdentity | null): ApiError | null {
    if (!now && this.gone)
      return new ApiError(
        `hub file ${this.file} was deleted while Muster had it open: writes are refused until it is back (restore it, or create the hub again)`,
        'not_found'
      )
    if (!now) return null
    if (now.size === 0 && this.sawContent === now.id)
      return new ApiError(
        `hub file ${this.file} was emptied (truncated to 0 bytes) while Muster had it open: writes are refused until it is restored`,
        'conflict'
      )
    if (now.size > 0 && !hasSqliteHeader(this.file))
      return new ApiError(
        `hub file ${this.file} is not a readable SQLite database (corrupt?): its header is damaged; writes are refused`,
        'invalid_input'
      )
    return null
  }

  /** `PRAGMA quick_check` on the write connection whenever the file changed since it last passed. */
  private verify(hub: HubFile, now: FileIdentity): void {
    const print = `${now.id}:${now.size}:${now.mtimeMs}`
    if (print === this.verified) return
    let problems: string[]
    try {
      hub.db.pragma('shrink_memory') // drop cached pages: the check must read what the file holds now
      problems = (hub.db.pragma('quick_check(3)') as { quick_check: string }[]).map((r) => r.quick_check).filter((r) => r !== 'ok')
    } catch (err) {
      if (isLockError(err)) throw err
      problems = [(err as Error).message]
    }
    if (problems.length)
      throw new ApiError(
        `hub file ${this.file} is not a readable SQLite database (corrupt?): ${problems.join('; ')}; writes are refused`,
        'invalid_input'
      )
    this.verified = print
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

  /**
   * Runs a read, waiting (without blocking the event loop) while the hub is locked. Reads take
   * turns, one per turn of the event loop: a fold of several reads, or several reads started
   * together, never runs as one long block, and the live tail, sockets and timers run between them.
   */
  readAsync<T>(fn: (db: Db, shape: HubShape) => T): Promise<T> {
    const run = this.readTurn.then(nextTurn).then(async () => {
      try {
        return await retryWhileLocked(() => this.readRaw(fn), this.timeoutMs)
      } catch (err) {
        throw hubError(err, this.file, this.timeoutMs)
      }
    })
    this.readTurn = run.then(
      () => undefined,
      () => undefined
    )
    return run
  }

  private readRaw<T>(fn: (db: Db, shape: HubShape) => T): T {
    return this.afresh(() => this.readOnce(fn))
  }

  /**
   * Runs `op`; when it finds the file corrupt, and the file changed since it last did (a good copy
   * restored over a damaged one, in place), once more on fresh connections: the ones held may keep
   * state of the damaged file (cached pages, a WAL index) that SQLite never reads again. A file
   * that stays damaged is retired for once, not on every read.
   */
  private afresh<T>(op: () => T): T {
    try {
      return op()
    } catch (err) {
      if (!isCorrupt(err)) throw err
      const now = identityOf(this.file)
      const print = now ? `${now.id}:${now.size}:${now.mtimeMs}` : null
      if (!now || print === this.corruptPrint) throw err
      this.corruptPrint = print
      this.retireConnections(this.held !== null && this.held.id === now.id)
      return op()
    }
  }

  private readOnce<T>(fn: (db: Db, shape: HubShape) => T): T {
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
  async write<T>(fn: (hub: HubFile) => T): Promise<T> {
    try {
      return await retryWhileLocked(() => this.afresh(() => this.writeOnce(fn)), this.timeoutMs)
    } catch (err) {
      throw hubError(err, this.file, this.timeoutMs)
    }
  }

  /** One attempt of `write`: the checks, the write, and the check that the path still names the file written. */
  private writeOnce<T>(fn: (hub: HubFile) => T): T {
    const now = this.guard()
    const refused = this.writeRefusal(now)
    if (refused) throw refused
    if (!this.writer) {
      this.writer = createHub(this.palace, { busyTimeoutMs: ATTEMPT_BUSY_MS })
      this.noteHeld()
    }
    const writing = this.held
    if (writing) this.verify(this.writer, writing)
    const result = fn(this.writer)
    // the path must still name the file just written: otherwise the write is in a dead file
    const after = identityOf(this.file)
    if (!writing || !after || after.id !== writing.id) {
      this.retireConnections()
      throw new ApiError(
        `hub file ${this.file} was replaced or deleted during the write: it went into a file that is no longer the hub and is not acknowledged; try again`,
        'conflict'
      )
    }
    this.held = after
    if (after.size > 0) this.sawContent = after.id
    return result
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
