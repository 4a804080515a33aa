/** A hub row at rowid 9223372036854775000, as a foreign writer could put it (issue 23, point 4). */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/** The rowid. */
export const HUGE_ROWID = '9223372036854775000'

/** Inserts one event at rowid 9223372036854775000 from a separate python3 process (as a foreign writer would). */
export function insertHugeRowid(palace: string, type = 'chat.message'): void {
  execFileSync('python3', [
    '-c',
    `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO events (rowid, id, type, stream, room, from_agent, body, created_at, metadata_json) VALUES (${HUGE_ROWID}, 'evt_huge', ?, 's', 'rooms', 'far-agent', 'far away', '2026-12-05T10:00:00Z', '{}')", (sys.argv[2],))
db.commit()`,
    join(palace, 'logstream.sqlite3'),
    type
  ])
}
