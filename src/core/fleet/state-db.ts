/**
 * Muster's own state database (`<home>/muster.sqlite3`): registered projects, settings, and later
 * cursors, allowlists and the memory index. Migrations run at open inside one transaction each.
 */
import { join } from 'node:path'
import { makeDirSync } from '../make-dir'
import { openDatabase, type Db } from '../sqlite'
import { migrations } from './migrations'

/** File name of the state DB inside Muster's home. */
export const STATE_DB_FILE = 'muster.sqlite3'

/** Opens (creating if needed) the state DB in `home` and migrates it to the latest version. */
export function openStateDb(home: string): Db {
  makeDirSync(home, { mode: 0o700 })
  const db = openDatabase(join(home, STATE_DB_FILE))
  db.pragma('journal_mode = WAL')
  // WAL + NORMAL: durable across crashes of Muster; only a power loss may drop the last commits.
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  migrate(db)
  return db
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
