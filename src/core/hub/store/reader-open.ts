/**
 * Opening a hub file for reading wherever it lives, writable or not. A WAL-mode SQLite reader
 * needs the `-shm` file (and creates it beside the hub); in a read-only folder or on a read-only
 * mount it cannot, and a plain open fails with "unable to open database file". So the reader
 * tries, in order: a normal connection (kept `query_only`), a read-only one (works when `-shm`
 * and `-wal` exist), and, when no `-wal` holds unmerged commits, an immutable one (reads the file
 * as it is, without locks or `-shm`). Nothing here ever writes the file.
 */
import { existsSync, statSync } from 'node:fs'
import { openDatabase, type Db } from '../../sqlite'
import { ATTEMPT_BUSY_MS, isLockError } from './lock-retry'

/** How a reader was opened. */
export type ReaderMode = 'normal' | 'read-only' | 'immutable'

/** True when `<file>-wal` exists and holds commits not yet merged into the file. */
export function walHasCommits(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 0
  } catch {
    return false
  }
}

/** A `file:` URI for SQLite (`%`, `?` and `#` escaped), opened immutable. */
function immutableUri(file: string): string {
  const path = file.replace(/\\/g, '/').replace(/[%?#]/g, (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0'))
  return `file:${path.startsWith('/') ? '' : '/'}${path}?immutable=1`
}

/** Errors that mean "this way of opening cannot work here": try the next way. */
function cannotOpenThisWay(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH')
  )
}

function tryOpen(target: string, readonly: boolean): Db {
  const db = openDatabase(target, { mustExist: !target.startsWith('file:'), readonly, busyTimeoutMs: ATTEMPT_BUSY_MS })
  try {
    db.pragma('query_only = ON')
    // Per-connection read tuning (nothing is written to the file): a 24 MiB page cache holds what a
    // filtered 1,000,000-row page reads (at 16 MiB it took 2-3x as long), and no memory-mapped
    // reads: on a large hub every page a fold touched stayed mapped into the process (~50 MB of
    // `muster serve`'s RSS), for no gain over reads through the OS's page cache (npm run bench).
    db.pragma('cache_size = -24576')
    db.pragma('mmap_size = 0')
    db.prepare('SELECT count(*) FROM sqlite_master').get() // surfaces "file is not a database" and -shm trouble now
    return db
  } catch (err) {
    db.close()
    throw err
  }
}

/**
 * Opens `file` (which exists) for reading; throws SQLite's error when no way works (a lock error
 * at once: the caller waits and tries again).
 */
export function openHubReader(file: string): { db: Db; mode: ReaderMode } {
  try {
    return { db: tryOpen(file, false), mode: 'normal' }
  } catch (err) {
    if (isLockError(err) || !cannotOpenThisWay(err)) throw err
  }
  try {
    return { db: tryOpen(file, true), mode: 'read-only' }
  } catch (err) {
    if (isLockError(err) || !cannotOpenThisWay(err) || walHasCommits(file) || !existsSync(file)) throw err
  }
  return { db: tryOpen(immutableUri(file), true), mode: 'immutable' }
}
