import { rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeProject, tmpDir, writeTree } from '../../../test/helpers/tmp'
import { openStateDb } from '../fleet/state-db'
import { searchMemory, syncMemoryIndex } from './memory-index'

const now = new Date('2026-12-02T12:00:00Z')

describe('memory index', () => {
  it('indexes, re-indexes only changed files (old rows gone), and drops deleted files', async () => {
    const db = openStateDb(tmpDir())
    const root = makeProject(tmpDir(), 'mem', { build: '' })
    writeTree(root, {
      'memory/2026-11-30.md': '# 2026-11-30\n\n## [BUILD] Session 1\n- 向量索引重建完成\n',
      'memory/2026-12-01.md': '# 2026-12-01\n\n## [QA] Session 1\n- 缓存失效复现 cache miss\n',
      'MEMORIES.md': '## Hub\n- **[LESSON] patch 必须保留末尾换行** (source: memory/2026-11-30.md) [PERMANENT]\n'
    })
    const project = { name: 'mem', key: 'MEM', path: root, addedAt: '' }
    const search = (query: string, scope: 'all' | 'recent' | 'longterm' = 'all') =>
      searchMemory(db, { projects: ['mem'], query, scope, limit: 20, now }).hits.map((h) => h.file)
    expect(await syncMemoryIndex(db, project)).toBe(3)
    expect(await syncMemoryIndex(db, project)).toBe(0)
    expect(search('向量索引')).toEqual(['memory/2026-11-30.md'])
    expect(search('末尾换行', 'longterm')).toEqual(['MEMORIES.md'])

    const changed = join(root, 'memory/2026-11-30.md')
    writeFileSync(changed, '# 2026-11-30\n\n## [BUILD] Session 1\n- 全文检索上线 trigram\n')
    utimesSync(changed, new Date(), new Date(Date.now() + 5000))
    rmSync(join(root, 'memory/2026-12-01.md'))
    expect(await syncMemoryIndex(db, project)).toBe(2)
    expect(search('向量索引')).toEqual([])
    expect(search('全文检索')).toEqual(['memory/2026-11-30.md'])
    expect(search('缓存失效')).toEqual([])
    expect(search('末尾换行')).toEqual(['MEMORIES.md'])
    const rows = db.prepare('SELECT count(*) AS n FROM memory_fts').get() as { n: number }
    const files = db.prepare('SELECT count(*) AS n FROM memory_files').get() as { n: number }
    expect(files.n).toBe(2)
    expect(rows.n).toBeGreaterThan(0)
  })

  it('two syncs racing over the same change index it once (no duplicate hits)', async () => {
    const db = openStateDb(tmpDir())
    const root = makeProject(tmpDir(), 'race', { build: '' })
    writeTree(root, { 'memory/2026-12-02.md': '# 2026-12-02\n\n## [OPERATOR] 09:00\n- 第一条记录\n' })
    const project = { name: 'race', key: 'RACE', path: root, addedAt: '' }
    await syncMemoryIndex(db, project)
    const file = join(root, 'memory/2026-12-02.md')
    writeFileSync(file, '# 2026-12-02\n\n## [OPERATOR] 09:00\n- 第一条记录\n\n## [OPERATOR] 10:00\n- 并发写入测试\n')
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    await Promise.all([syncMemoryIndex(db, project), syncMemoryIndex(db, project), syncMemoryIndex(db, project)])
    const hits = searchMemory(db, { projects: ['race'], query: '并发写入', scope: 'all', limit: 20, now }).hits
    expect(hits).toHaveLength(1)
    expect(searchMemory(db, { projects: ['race'], query: '第一条记录', scope: 'all', limit: 20, now }).hits).toHaveLength(1)
  })
})
