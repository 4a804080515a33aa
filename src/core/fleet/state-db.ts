/**
 * Muster's own state database (`<home>/muster.sqlite3`): registered projects, settings, and later
 * cursors, allowlists and the memory index. Migrations run at open inside one transaction each.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { makeDirSync } from '../make-dir'
import { openDatabase, type Db } from '../sqlite'
import { migrations } from './migrations'

import { STATE_DB_FILE } from './state-file'

export { STATE_DB_FILE }

/**
 * Opens (creating if needed) the state DB in `home` and migrates it to the latest version. A home
 * Muster cannot write (a read-only folder or mount, a full disk) still serves reads: an existing
 * DB is opened read-only (see `openReadOnlyState`), and whatever must write it then fails naming
 * the file and why (`stateWriteError`).
 */
export function openStateDb(home: string): Db {
  const file = join(home, STATE_DB_FILE)
  try {
    makeDirSync(home, { mode: 0o700 })
    const db = openDatabase(file)
    try {
      db.pragma('journal_mode = WAL')
      // WAL + NORMAL: durable across crashes of Muster; only a power loss may drop the last commits.
      db.pragma('synchronous = NORMAL')
      db.pragma('foreign_keys = ON')
      migrate(db)
    } catch (err) {
      db.close()
      throw err
    }
    return db
  } catch (err) {
    const why = unwritable(err)
    if (why === null || !existsSync(file)) throw err
    return openReadOnlyState(file, why)
  }
}

/** Why an error means the home cannot be written (read-only, no space, no permission), or null. */
export function unwritable(err: unknown): string | null {
  const code = String((err as { code?: unknown } | null)?.code ?? '')
  const message = err instanceof Error ? err.message : String(err)
  if (code === 'EROFS' || code.startsWith('SQLITE_READONLY')) return 'it is on a read-only file system or folder'
  if (code === 'ENOSPC' || code === 'SQLITE_FULL' || /disk is full|no space/i.test(message)) return 'the disk is full'
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_PERM' || code.startsWith('SQLITE_CANTOPEN'))
    return 'Muster may not write there (permissions)'
  // SQLite grows its -shm file by writing to it: on a full disk that is the first write to fail
  if (code === 'SQLITE_IOERR_SHMSIZE') return 'the disk is full (SQLite could not grow its -shm file)'
  if (code.startsWith('SQLITE_IOERR')) return `the disk refused a write (${code})`
  return null
}

/** Why each read-only state DB cannot be written (to name in errors). */
const readOnlyWhy = new WeakMap<Db, { file: string; why: string }>()

/**
 * Opens an existing state DB for reading only: a plain read-only connection, else (no `-shm` can
 * be made beside it) an immutable one. It must already be at the latest version: migrating writes.
 */
function openReadOnlyState(file: string, why: string): Db {
  let db: Db
  try {
    db = openDatabase(file, { readonly: true, mustExist: true })
    db.prepare('SELECT count(*) FROM sqlite_master').get()
  } catch {
    const uri = `file:${file.replace(/[%?#]/g, (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0'))}?immutable=1`
    db = openDatabase(uri, { readonly: true })
  }
  const version = db.pragma('user_version', { simple: true }) as number
  if (version < migrations.length) {
    db.close()
    throw new Error(`Muster's state DB ${file} needs an upgrade, which writes it, but ${why}`)
  }
  db.pragma('query_only = ON')
  readOnlyWhy.set(db, { file, why })
  return db
}

/** For a state DB opened read-only: the error a write gets, naming the file and why (else null). */
export function stateWriteError(db: Db, what: string): Error | null {
  const ro = readOnlyWhy.get(db)
  return ro ? new Error(`cannot ${what}: it is recorded in Muster's state DB ${ro.file}, which cannot be written (${ro.why})`) : null
}

/** True when the state DB was opened read-only (the home cannot be written). */
export function stateReadOnly(db: Db): boolean {
  return readOnlyWhy.has(db)
}

/** Applies every migration newer than the DB's `user_version`. */
export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > migrations.length) {
    throw new Error(`Muster state DB is version ${current}, newer than this Muster (${migrations.length}): upgrade Muster`)
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]!)
      db.pragma(`user_version = ${v + 1}`)
    })()
  }
  return migrations.length
}
