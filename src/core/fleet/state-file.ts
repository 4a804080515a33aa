/** The state DB's file name, apart from `state-db.ts` so that the hook's fast path names it without loading SQLite. */

/** File name of the state DB inside Muster's home. */
export const STATE_DB_FILE = 'muster.sqlite3'
