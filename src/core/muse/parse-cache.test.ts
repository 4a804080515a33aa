/**
 * The parse cache: digests survive the process (state DB), and every way a role file changes
 * invalidates them: an edit keeping the size, a replacement by rename, a `touch -r` putting the
 * old mtime back, a write within the racy window. A busy DB never blocks or fails a read.
 */
import { createHash } from 'node:crypto'
import { renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { openStateDb } from '../fleet/state-db'
import { openDatabase } from '../sqlite'
import { RoleCache } from './fleet-scan'
import { RACY_MS, type FileStamp } from '../../shared/file-stamp'
import { DIGEST_VERSION, ParseCache } from './parse-cache'
import { digestOf, parseRole } from './parse-role'
import { digestRole } from './role-digest'

/** A clock far enough ahead that every file just written counts as settled (outside the racy window). */
const later = () => Date.now() + 60_000

/** A role file with `body` as its TODO item, returning its path. */
function writeRole(dir: string, file: string, body: string): string {
  const p = join(dir, file)
  writeFileSync(p, `<!-- L0: v1.0.0 | ${body} | ok -->\n## TODO\n- [ ] ${body}\n`)
  return p
}

describe('RoleCache with the state DB', () => {
  it('a new cache on the same DB reads an unchanged file without parsing it', async () => {
    const home = tmpDir()
    const dir = tmpDir()
    const p = writeRole(dir, 'build.md', 'alpha')
    const db = openStateDb(home)
    const first = new RoleCache({ db, now: later })
    const a = await first.read(p, 'build.md')
    first.flush()
    db.close()

    const db2 = openStateDb(home)
    const second = new RoleCache({ db: db2, now: later })
    const b = await second.read(p, 'build.md')
    expect(second.stats).toEqual({ parsed: 0, cached: 1 })
    expect(b).toEqual(a)
    expect(b.l0?.topPriority).toBe('alpha')
    db2.close()
  })

  it('an edit keeping the size (mtime moves) is parsed again, in this process and the next', async () => {
    const home = tmpDir()
    const dir = tmpDir()
    const p = writeRole(dir, 'build.md', 'alpha')
    const db = openStateDb(home)
    const cache = new RoleCache({ db, now: later })
    await cache.read(p, 'build.md')
    cache.flush()
    const before = statSync(p)
    writeRole(dir, 'build.md', 'omega')
    utimesSync(p, before.atime, new Date(before.mtimeMs + 5000))
    expect(statSync(p).size).toBe(before.size)
    expect((await cache.read(p, 'build.md')).l0?.topPriority).toBe('omega')
    expect(cache.stats.parsed).toBe(2)
    cache.flush()
    db.close()

    const db2 = openStateDb(home)
    const next = new RoleCache({ db: db2, now: later })
    expect((await next.read(p, 'build.md')).l0?.topPriority).toBe('omega')
    expect(next.stats).toEqual({ parsed: 0, cached: 1 })
    db2.close()
  })

  it('a same-size edit that puts the old mtime back (touch -r, cp -p) is parsed again', async () => {
    const dir = tmpDir()
    const p = writeRole(dir, 'build.md', 'alpha')
    utimesSync(p, 1_700_000_000, 1_700_000_000) // whole seconds: utimes cannot set every sub-ms mtime back exactly
    const cache = new RoleCache({ db: openStateDb(tmpDir()), now: later })
    await cache.read(p, 'build.md')
    const before = statSync(p)
    writeRole(dir, 'build.md', 'omega')
    utimesSync(p, 1_700_000_000, 1_700_000_000)
    expect(statSync(p).mtimeMs).toBe(before.mtimeMs)
    expect((await cache.read(p, 'build.md')).l0?.topPriority).toBe('omega')
  })

  it('a file replaced by rename with the same size and mtime is parsed again', async () => {
    const home = tmpDir()
    const dir = tmpDir()
    const p = writeRole(dir, 'build.md', 'alpha')
    utimesSync(p, 1_700_000_000, 1_700_000_000)
    const db = openStateDb(home)
    const cache = new RoleCache({ db, now: later })
    await cache.read(p, 'build.md')
    cache.flush()
    const before = statSync(p)
    const tmp = writeRole(dir, 'build.md.tmp', 'omega')
    utimesSync(tmp, 1_700_000_000, 1_700_000_000)
    renameSync(tmp, p)
    const after = statSync(p)
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs])
    expect(after.ino).not.toBe(before.ino)
    expect((await cache.read(p, 'build.md')).l0?.topPriority).toBe('omega')
    db.close()
    // and the next process, starting from the DB row of the old file, does not trust it either
    const other = new RoleCache({ db: openStateDb(home), now: later })
    expect((await other.read(p, 'build.md')).l0?.topPriority).toBe('omega')
  })

  it('a file written within the racy window is not cached (parsed again next time, never stored)', async () => {
    const home = tmpDir()
    const p = writeRole(tmpDir(), 'build.md', 'alpha')
    const db = openStateDb(home)
    const cache = new RoleCache({ db })
    await cache.read(p, 'build.md')
    await cache.read(p, 'build.md')
    expect(cache.stats).toEqual({ parsed: 2, cached: 0 })
    cache.flush()
    expect(db.prepare('SELECT COUNT(*) AS n FROM role_parse_cache').get()).toEqual({ n: 0 })
    db.close()
  })

  it('forgets files that left the folder or the fleet', async () => {
    const dir = tmpDir()
    const db = openStateDb(tmpDir())
    const cache = new RoleCache({ db, now: later })
    const a = writeRole(dir, 'a.md', 'a')
    const b = writeRole(dir, 'b.md', 'b')
    await cache.read(a, 'a.md')
    await cache.read(b, 'b.md')
    cache.flush()
    unlinkSync(b)
    cache.retainIn(dir, ['a.md'])
    cache.flush()
    expect(db.prepare('SELECT path FROM role_parse_cache').all()).toEqual([{ path: a }])
    expect(db.prepare('SELECT path FROM role_parse_digest').all()).toEqual([{ path: a }])
    cache.retainProjects([])
    cache.flush()
    expect(db.prepare('SELECT COUNT(*) AS n FROM role_parse_cache').get()).toEqual({ n: 0 })
    db.close()
  })

  it('a DB busy with another process write is skipped at once, and written at a later flush', async () => {
    const home = tmpDir()
    const p = writeRole(tmpDir(), 'build.md', 'alpha')
    const db = openStateDb(home)
    const cache = new RoleCache({ db, now: later })
    await cache.read(p, 'build.md')
    const other = openDatabase(join(home, 'muster.sqlite3'))
    other.prepare('BEGIN IMMEDIATE').run()
    // a flush that waited on the lock would wait this long: far past the test's timeout
    db.pragma('busy_timeout = 3600000')
    expect(() => cache.flush()).not.toThrow()
    other.prepare('ROLLBACK').run()
    other.close()
    expect(db.pragma('busy_timeout', { simple: true })).toBe(3_600_000)
    db.pragma('busy_timeout = 10000')
    cache.flush()
    expect(db.prepare('SELECT path FROM role_parse_cache').all()).toEqual([{ path: p }])
    db.close()
  })
})

describe('ParseCache', () => {
  const stamp: FileStamp = [1, 2, 3, 1000, 1000]
  const digest = digestRole('a.md', Buffer.from('<!-- L0: v1 | x | y -->\n'))

  it('counts come back from the DB exactly as parsed, odd L0 lines included', () => {
    const db = openStateDb(tmpDir())
    const texts = [
      '<!-- L0: v1.2.3 | P0 | a, b -->\n',
      '\ufeff\ufeff<!-- L0: double BOM -->\r\r\n',
      '<!-- L0: x | y -->\r\r\n## TODO\n- [ ] a\n- [x] b\n📡 **S01→A/B**: 🟡 **t**\n',
      'no L0\n'
    ]
    const written = new ParseCache(db)
    texts.forEach((t, i) => written.put(`/p/${i}.md`, [1, i, 3, 1000, 1000], digestRole(`${i}.md`, Buffer.from(t)), 1000 + RACY_MS))
    written.flush()
    const read = new ParseCache(db)
    texts.forEach((t, i) => {
      const d = digestRole(`${i}.md`, Buffer.from(t))
      expect(read.counts(`/p/${i}.md`, [1, i, 3, 1000, 1000])).toEqual({
        l0: d.l0,
        lineCount: d.lineCount,
        pendingDirectives: i === 2 ? 1 : 0,
        openTodos: d.todos.open,
        doneTodos: d.todos.done
      })
      expect(read.digest(`/p/${i}.md`, [1, i, 3, 1000, 1000])).toEqual(d)
    })
    expect(read.counts('/p/2.md', [1, 2, 3, 1000, 1000])).toMatchObject({ openTodos: 1, doneTodos: 1 })
    db.close()
  })

  it('a stamp differing in dev, inode, size, mtime or ctime misses', () => {
    const cache = new ParseCache(null)
    cache.put('/p/a.md', stamp, digest, 1000 + RACY_MS)
    expect(cache.digest('/p/a.md', [...stamp])).toBe(digest)
    expect(cache.counts('/p/a.md', [...stamp])).toMatchObject({ lineCount: 1, pendingDirectives: 0 })
    for (const k of [0, 1, 2, 3, 4]) {
      const other: FileStamp = [...stamp]
      other[k] = stamp[k]! + 1
      expect(cache.digest('/p/a.md', other), String(k)).toBeNull()
      expect(cache.counts('/p/a.md', other), String(k)).toBeNull()
    }
  })

  it('racy rule: cached only when mtime and ctime are RACY_MS older than the read', () => {
    const cache = new ParseCache(null)
    cache.put('/p/a.md', stamp, digest, 1000 + RACY_MS - 1)
    expect(cache.digest('/p/a.md', stamp)).toBeNull()
    cache.put('/p/a.md', [1, 2, 3, 1000, 5000], digest, 1000 + RACY_MS)
    expect(cache.digest('/p/a.md', [1, 2, 3, 1000, 5000])).toBeNull()
  })

  it('rows of another parser version are ignored and deleted', () => {
    const db = openStateDb(tmpDir())
    db.prepare(
      'INSERT INTO role_parse_cache (path, dev, ino, size, mtime_ms, ctime_ms, parser, l0, line_count, pending, open_todos, done_todos) VALUES (?, 1, 2, 3, 1000, 1000, ?, NULL, 1, 0, 0, 0)'
    ).run('/p/a.md', DIGEST_VERSION + 1)
    db.prepare('INSERT INTO role_parse_digest (path, digest) VALUES (?, ?)').run('/p/a.md', JSON.stringify(digest))
    const cache = new ParseCache(db)
    expect(cache.digest('/p/a.md', stamp)).toBeNull()
    cache.flush()
    expect(db.prepare('SELECT COUNT(*) AS n FROM role_parse_cache').get()).toEqual({ n: 0 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM role_parse_digest').get()).toEqual({ n: 0 })
    db.close()
  })
})

describe('DIGEST_VERSION', () => {
  /** A fixed role file touching every part of the digest (L0, sections, TODO groups, the four forms, notices, fence, footer). */
  const SAMPLE = [
    '<!-- L0: v2.22.0 | S043✅, Skill Marketplace✅, 桌面端 | QA PASS -->',
    '# BUILD 状态',
    '## ⏳ 待办',
    '- [ ] 修复 MCP (#1)',
    '### 分组 A',
    '- [x] done item',
    '* [/] in progress',
    '```',
    '- [ ] inside a fence',
    '```',
    '## 📡 指令队列',
    '📡 **S041→MUSE/BUILD**: 🟡 **修复 MCP** rest',
    '> body line',
    '',
    '📡 S025→DYA/GM: V1.2.0 加入健康证明功能',
    '## 📡 已接收指令',
    '### S029→MUSE/BUILD (3/13) — ✅️ 已接收 3/14 16:00',
    '> receipt body',
    '### 📡 QA→BUILD 通知 (2026-03-15 23:46)',
    'notice text',
    '🟡 待 BUILD 处理',
    '',
    '---',
    '',
    '*MUSE BUILD v1.0*',
    '📡 **S050→QA**: 🟡 **after the footer**'
  ].join('\n')

  it('is bumped whenever the parser output changes (cached digests of the old output would be served)', () => {
    // When this hash changes, the parser's output changed: bump DIGEST_VERSION in parse-cache.ts
    // and write the new version and hash here.
    const hash = createHash('sha256')
      .update(JSON.stringify(digestOf(parseRole('build.md', SAMPLE))))
      .digest('hex')
      .slice(0, 16)
    expect({ version: DIGEST_VERSION, hash }).toEqual({ version: 3, hash: '3a25f8f9eb82a740' })
  })
})
