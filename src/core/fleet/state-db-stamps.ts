/**
 * The stamps of the state DB's files: every commit moves one (a commit appends to the write-ahead
 * log or the rollback journal, a checkpoint writes the database file), so equal stamps mean no
 * commit in between. `muster status` keeps the registry under them (src/cli/status-snapshot.ts)
 * and need not open SQLite while they hold. Blocking calls: only for a one-shot process.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { fileStamp, sameStamp, stampSettled, type FileStamp } from '../../shared/file-stamp'
import { STATE_DB_FILE } from './state-db'

/**
 * A file's stamp without its ctime (SQLite running as root `fchown`s its write-ahead log at every
 * open, which moves its ctime with nothing written); null for a missing file or an empty log. An
 * empty log holds no commit (once a log is emptied its commits are in the database file, whose
 * stamp moved), and a read-only open may create one.
 */
export type DbFileStamp = FileStamp | null

/** The stamps of the database, its write-ahead log and its rollback journal in `home`; null when one cannot be `stat`ed. */
export function stateDbStampsNow(home: string): DbFileStamp[] | null {
  const db = join(home, STATE_DB_FILE)
  try {
    return [db, `${db}-wal`, `${db}-journal`].map((path, i) => {
      const st = statSync(path, { throwIfNoEntry: false })
      return st && !(i > 0 && st.size === 0) ? fileStamp(st, { ctime: false }) : null
    })
  } catch {
    return null
  }
}

/** True when the stamps `a` and `b` are the same. */
export function sameDbStamps(a: readonly DbFileStamp[], b: readonly DbFileStamp[]): boolean {
  return a.length === b.length && a.every((row, i) => sameStamp(row, b[i] ?? null))
}

/** True when every file in `stamps` was last written at least RACY_MS before `at` (the racy rule, see file-stamp.ts). */
export function dbStampsSettledAt(stamps: readonly DbFileStamp[], at: number): boolean {
  return stamps.every((r) => r === null || stampSettled(r, at))
}
