/**
 * The parse cache: what the fleet views read of each role file (its digest, and the few counts
 * the overview shows), by path, valid while the file's stamp is unchanged; kept in memory and in
 * the state DB (`role_parse_cache`, migration 5) so that a new process (`muster status`, a
 * restarted app) shows an unchanged fleet after one `stat` per file, without reading or parsing
 * anything. The overview loads only the counts columns; digests are loaded on first use.
 *
 * An entry is kept under its file's stamp (src/shared/file-stamp.ts: identity, size, mtime and
 * ctime), and cached only when its stamp is settled (at least RACY_MS old) when the file is read: a
 * file written again within the same timestamp tick keeping its size would otherwise keep a stale
 * entry ("racy git"). Such a recent file is simply parsed again next time.
 *
 * Writes are batched (`flush`, one transaction) and best-effort: the cache never makes a read
 * fail, and a DB busy with another Muster process's write is skipped, not waited for (a
 * synchronous wait would block the event loop).
 */
import { dirname } from 'node:path'
import type { L0 } from '../../shared/api'
import { RACY_MS, sameStamp, stampSettled, type FileStamp } from '../../shared/file-stamp'
import type { Db } from '../sqlite'
import type { RoleDigest } from './parse-role'
import { countsOf, type RoleCounts } from './role-files'

/**
 * Version of the digest format and of the parser's output. Bump it whenever the parser's results
 * change: rows of another version are ignored and replaced. `parse-cache.test.ts` fails when the
 * output changes on its sample while this stays the same.
 */
export const DIGEST_VERSION = 3

/** The racy rule's age (file-stamp.ts), named here too for the fleet-scan bench. */
export { RACY_MS }

/** What the cache knows of one version of a file without its digest. */
interface CachedCounts {
  stamp: FileStamp
  counts: RoleCounts
}

/** One cached file; `digest` is null until asked for when the entry came from the DB. */
interface Entry extends CachedCounts {
  digest: RoleDigest | null
}

interface Row {
  path: string
  dev: number
  ino: number
  size: number
  mtime_ms: number
  ctime_ms: number
  parser: number
  /** The L0 as JSON (null: no L0). */
  l0: string | null
  line_count: number
  pending: number
  open_todos: number
  done_todos: number
}

const COLUMNS = 'path, dev, ino, size, mtime_ms, ctime_ms, parser, l0, line_count, pending, open_todos, done_todos'

/**
 * The state DB's stamps and counts (no digests) of this parser version, by path, in one SELECT
 * of rows as arrays (a new process reads thousands: `muster status`); `stale` is given the paths
 * of other versions' rows.
 */
function loadCachedCounts(db: Db, stale?: (path: string) => void): Map<string, CachedCounts> {
  const rows = db.prepare(`SELECT ${COLUMNS} FROM role_parse_cache`).raw().all() as RawRow[]
  const out = new Map<string, CachedCounts>()
  for (const [path, dev, ino, size, mtimeMs, ctimeMs, parser, l0, lineCount, pending, openTodos, doneTodos] of rows) {
    if (parser !== DIGEST_VERSION) stale?.(path)
    else
      out.set(path, {
        stamp: [dev, ino, size, mtimeMs, ctimeMs],
        counts: { l0: l0 === null ? null : (JSON.parse(l0) as L0), lineCount, pendingDirectives: pending, openTodos, doneTodos }
      })
  }
  return out
}

/** A row of COLUMNS as an array, in their order. */
type RawRow = [string, number, number, number, number, number, number, string | null, number, number, number, number]

/** Role-file digests and counts by absolute path (memory, backed by the state DB when one is given). */
export class ParseCache {
  private entries: Map<string, Entry> | null = null
  /** Paths of `entries` by folder, to forget a folder's vanished files without a full pass. */
  private readonly byDir = new Map<string, Set<string>>()
  /** Paths whose row in the DB is of this version (so a `forget` must delete it). */
  private readonly stored = new Set<string>()
  private readonly toWrite = new Set<string>()
  private readonly toDelete = new Set<string>()
  private digestRows: Map<string, Row & { digest: string }> | null = null

  constructor(private readonly db: Db | null) {}

  /** The cached counts of `path` if its stamp is still `stamp`, else null. */
  counts(path: string, stamp: FileStamp): RoleCounts | null {
    const e = this.load().get(path)
    return e && sameStamp(e.stamp, stamp) ? e.counts : null
  }

  /** True when the cache holds some version of `path` (a file it has never seen needs no stamp to be read). */
  knows(path: string): boolean {
    return this.load().has(path)
  }

  /** The cached digest of `path` if its stamp is still `stamp`, else null. */
  digest(path: string, stamp: FileStamp): RoleDigest | null {
    const e = this.load().get(path)
    if (!e || !sameStamp(e.stamp, stamp)) return null
    if (!e.digest) {
      // the row may have been rewritten by another process since the counts were loaded
      const row = this.digestsFromDb().get(path)
      if (!row || !sameStamp(stampOfRow(row), e.stamp)) return null
      e.digest = JSON.parse(row.digest) as RoleDigest
    }
    return e.digest
  }

  /**
   * Remembers the digest of `path` read at `readAt` (ms since the epoch, taken before reading) with
   * the stamp seen before reading. A stamp younger than RACY_MS at `readAt` is not cached.
   */
  put(path: string, stamp: FileStamp, digest: RoleDigest, readAt: number): void {
    if (!stampSettled(stamp, readAt)) {
      this.forget(path)
      return
    }
    this.set(path, { stamp, counts: countsOf(digest), digest })
    this.toDelete.delete(path)
    if (this.db) this.toWrite.add(path)
  }

  /** Drops `path` (a file that vanished or is too new to trust). */
  forget(path: string): void {
    const entries = this.load()
    if (entries.delete(path)) this.byDir.get(dirname(path))?.delete(path)
    this.toWrite.delete(path)
    if (this.stored.has(path)) this.toDelete.add(path)
  }

  /** Drops every entry of a file directly in `dir` whose name is not in `files` (the folder's current listing). */
  retainIn(dir: string, files: readonly string[]): void {
    this.load()
    const paths = this.byDir.get(dir)
    if (!paths) return
    const keep = new Set(files)
    for (const path of [...paths]) if (!keep.has(path.slice(dir.length + 1))) this.forget(path)
  }

  /** Drops every entry of a file outside `dirs` (after a scan of the whole fleet: removed projects). */
  retainDirs(dirs: readonly string[]): void {
    this.load()
    const keep = new Set(dirs)
    for (const [dir, paths] of [...this.byDir]) if (!keep.has(dir)) for (const path of [...paths]) this.forget(path)
  }

  /** Writes pending changes to the state DB in one transaction; skipped (kept for later) when another process holds the write lock. */
  flush(): void {
    const db = this.db
    if (!db || (this.toWrite.size === 0 && this.toDelete.size === 0)) return
    const entries = this.load()
    const writes = [...this.toWrite].map((path) => {
      const { stamp: s, counts: c, digest } = entries.get(path)!
      const row: Row & { digest: string } = {
        path,
        dev: s[0],
        ino: s[1],
        size: s[2],
        mtime_ms: s[3],
        ctime_ms: s[4] ?? -1,
        parser: DIGEST_VERSION,
        l0: c.l0 ? JSON.stringify(c.l0) : null,
        line_count: c.lineCount,
        pending: c.pendingDirectives,
        open_todos: c.openTodos,
        done_todos: c.doneTodos,
        digest: JSON.stringify(digest)
      }
      return row
    })
    const deletes = [...this.toDelete]
    // REPLACE deletes the old row first, and with it (cascade) its digest
    const upsert = db.prepare(
      `INSERT OR REPLACE INTO role_parse_cache (${COLUMNS}) VALUES (@path, @dev, @ino, @size, @mtime_ms, @ctime_ms, @parser, @l0, @line_count, @pending, @open_todos, @done_todos)`
    )
    const upsertDigest = db.prepare('INSERT OR REPLACE INTO role_parse_digest (path, digest) VALUES (@path, @digest)')
    const del = db.prepare('DELETE FROM role_parse_cache WHERE path = ?')
    const delDigest = db.prepare('DELETE FROM role_parse_digest WHERE path = ?')
    const previous = db.pragma('busy_timeout', { simple: true }) as number
    try {
      db.pragma('busy_timeout = 0')
      db.transaction(() => {
        for (const w of writes) {
          upsert.run(w)
          upsertDigest.run(w)
        }
        for (const path of deletes) {
          delDigest.run(path)
          del.run(path)
        }
      })()
    } catch (err) {
      // the cache is only a speed-up: a busy DB, or a home Muster cannot write (read-only, disk full), keeps it in memory
      if (isBusy(err) || cannotWrite(err)) return
      throw err
    } finally {
      db.pragma(`busy_timeout = ${previous}`)
    }
    for (const w of writes) {
      this.toWrite.delete(w.path)
      this.stored.add(w.path)
    }
    for (const path of deletes) {
      this.toDelete.delete(path)
      this.stored.delete(path)
    }
  }

  private set(path: string, e: Entry): void {
    const entries = this.load()
    entries.set(path, e)
    const dir = dirname(path)
    let paths = this.byDir.get(dir)
    if (!paths) this.byDir.set(dir, (paths = new Set()))
    paths.add(path)
  }

  /** The entries, with the DB's rows (stamps and counts; one SELECT) on first use. */
  private load(): Map<string, Entry> {
    if (this.entries) return this.entries
    this.entries = new Map()
    if (!this.db) return this.entries
    // another parser's rows are useless: deleted at the next flush (unless replaced first)
    const rows = loadCachedCounts(this.db, (path) => this.toDelete.add(path))
    for (const [path, e] of rows) {
      this.stored.add(path)
      this.set(path, { stamp: e.stamp, counts: e.counts, digest: null })
    }
    return this.entries
  }

  /** The DB's digests by path with their stamps (one SELECT, on the first digest asked for). */
  private digestsFromDb(): Map<string, Row & { digest: string }> {
    if (!this.digestRows) {
      const sql = `SELECT ${COLUMNS.replace(/\w+/g, 'c.$&')}, d.digest FROM role_parse_cache c JOIN role_parse_digest d ON d.path = c.path WHERE c.parser = ?`
      const rows = this.db ? (this.db.prepare(sql).all(DIGEST_VERSION) as (Row & { digest: string })[]) : []
      this.digestRows = new Map(rows.map((r) => [r.path, r]))
    }
    return this.digestRows
  }
}

function stampOfRow(r: Row): FileStamp {
  return [r.dev, r.ino, r.size, r.mtime_ms, r.ctime_ms]
}

/** A write the state DB refuses for good: read-only (home or connection), disk full, I/O error. */
function cannotWrite(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '')
  return /^SQLITE_(READONLY|FULL|IOERR|CANTOPEN|PERM)/.test(code)
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT'
}
