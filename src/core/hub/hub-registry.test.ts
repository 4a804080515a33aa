import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { migrations } from '../fleet/migrations'
import { migrate, openStateDb } from '../fleet/state-db'
import { openDatabase } from '../sqlite'
import { HubRegistry, locationOf } from './hub-registry'

describe('hub registry', () => {
  it('migration 4 keeps every v3 hub (now kind=local) and its inbox cursor, and makes room for remote hubs', () => {
    const home = tmpDir()
    const db = openDatabase(join(home, 'muster.sqlite3'))
    for (const sql of migrations.slice(0, 3)) db.exec(sql)
    db.pragma('user_version = 3')
    db.prepare('INSERT INTO hubs (name, palace, added_at) VALUES (?, ?, ?)').run('Home', '/p/home', '2026-01-01T00:00:00.000Z')
    db.prepare("INSERT INTO inbox_cursors VALUES ('/p/home', 'desk-muster', 7, 'evt_x', 'now')").run()
    migrate(db)
    const reg = new HubRegistry(db)
    expect(reg.list()).toEqual([
      { name: 'Home', kind: 'local', palace: '/p/home', url: null, token_file: null, added_at: '2026-01-01T00:00:00.000Z' }
    ])
    expect(reg.find('home')?.name).toBe('Home') // names stay case-insensitive
    expect(reg.cursor('/p/home', 'desk-muster')).toMatchObject({ last_seq: 7 })
    // A remote record: URL + token file, no palace; a half-local half-remote row is refused.
    db.prepare(
      "INSERT INTO hubs (name, kind, url, token_file, added_at) VALUES ('lab', 'remote', 'http://10.0.0.2:8765', 'hub-tokens/lab.token', 'now')"
    ).run()
    expect(locationOf(reg.get('lab'))).toBe('http://10.0.0.2:8765')
    expect(() =>
      db.prepare("INSERT INTO hubs (name, kind, palace, url, added_at) VALUES ('x', 'local', '/p/x', 'http://y', 'now')").run()
    ).toThrow(/CHECK/)
    expect(() => db.prepare("INSERT INTO hubs (name, kind, added_at) VALUES ('y', 'remote', 'now')").run()).toThrow(/CHECK/)
    db.close()
  })

  it('adds local hubs idempotently by palace; remove drops the cursors', () => {
    const db = openStateDb(tmpDir())
    const reg = new HubRegistry(db)
    const { hub } = reg.add('/p/one', 'one')
    expect(hub).toMatchObject({ name: 'one', kind: 'local', palace: '/p/one', url: null })
    expect(reg.add('/p/one', 'other')).toMatchObject({ added: false, hub: { name: 'one' } })
    reg.setCursor('/p/one', 'me', 3, 'evt_a')
    reg.remove('one')
    expect(reg.cursor('/p/one', 'me')).toBeNull()
    db.close()
  })
})
