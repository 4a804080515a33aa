import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { appendMemory, chunksOf, parseMemories } from './memory-files'

describe('MEMORIES.md', () => {
  it('parses kinds, sources, tags, topics and superseded entries', () => {
    const text =
      '# MEMORIES\n\n## 版本与发布\n- **[FACT] v2.22.0 = Memory Loss Prevention** (source: memory/2026-03-15.md) [EPISODIC]\n- **[LESSON] patch 必须保留末尾换行** (source: memory/2026-03-16.md) [PERMANENT]\n- ~~**[FACT] hub 放在 Dropbox** (source: memory/2026-03-01.md) [TEMPORAL:2026-03-01]~~ → 已迁\n- plain note\n```\n- **[FACT] in a fence**\n```\n## Other\n- **[DECISION] x** [DECAY]\n'
    expect(parseMemories(text)).toEqual([
      {
        topic: '版本与发布',
        kind: 'FACT',
        text: 'v2.22.0 = Memory Loss Prevention',
        source: 'memory/2026-03-15.md',
        tags: ['EPISODIC'],
        superseded: false,
        line: 4
      },
      {
        topic: '版本与发布',
        kind: 'LESSON',
        text: 'patch 必须保留末尾换行',
        source: 'memory/2026-03-16.md',
        tags: ['PERMANENT'],
        superseded: false,
        line: 5
      },
      {
        topic: '版本与发布',
        kind: 'FACT',
        text: 'hub 放在 Dropbox',
        source: 'memory/2026-03-01.md',
        tags: ['TEMPORAL:2026-03-01'],
        superseded: true,
        line: 6
      },
      { topic: 'Other', kind: 'DECISION', text: 'x', source: null, tags: ['DECAY'], superseded: false, line: 12 }
    ])
  })

  it('daily logs are cut into paragraphs with their first line', () => {
    expect(
      chunksOf('memory/2026-03-15.md', '# 2026-03-15\n\n## [BUILD] Session 1: x (09:00-10:00)\n\n### 完成\n- a\n- b\n\n### 决策\n- c\n')
    ).toEqual([
      { line: 1, text: '# 2026-03-15', kind: null },
      { line: 3, text: '## [BUILD] Session 1: x (09:00-10:00)', kind: null },
      { line: 5, text: '### 完成\n- a\n- b', kind: null },
      { line: 9, text: '### 决策\n- c', kind: null }
    ])
  })
})

describe('appendMemory', () => {
  it('an agent that rewrites the log from an old read: the entry is re-applied once, the agent line kept', async () => {
    const root = tmpDir()
    mkdirSync(join(root, 'memory'))
    const now = new Date(2026, 2, 17, 9, 5)
    const log = join(root, 'memory', '2026-03-17.md')
    writeFileSync(log, '# 2026-03-17\n')
    let fired = false
    const r = await appendMemory(root, 'build', 'did it', now, {
      afterInstall: (p) => void (!fired && (fired = true) && writeFileSync(p, '# 2026-03-17\nagent line\n'))
    })
    expect(r).toEqual({ file: 'memory/2026-03-17.md', line: 4, created: false })
    expect(readFileSync(log, 'utf8')).toBe('# 2026-03-17\nagent line\n\n## [BUILD] 09:05\n\ndid it\n')
  })

  it('the same entry written twice lands twice', async () => {
    const root = tmpDir()
    const now = new Date(2026, 2, 17, 9, 5)
    await appendMemory(root, undefined, 'x', now)
    await appendMemory(root, undefined, 'x', now)
    expect(readFileSync(join(root, 'memory', '2026-03-17.md'), 'utf8')).toBe('# 2026-03-17\n\n## 09:05\n\nx\n\n## 09:05\n\nx\n')
  })

  it('a memory/ folder linked outside the project is never written through', async () => {
    const root = tmpDir()
    const elsewhere = tmpDir()
    symlinkSync(elsewhere, join(root, 'memory'))
    await expect(appendMemory(root, undefined, 'x', new Date(2026, 2, 17))).rejects.toMatchObject({
      code: 'forbidden',
      message: `memory resolves to ${realpathSync(elsewhere)}, outside the project: Muster reads it but never writes through a link that leaves the project`
    })
    expect(readdirSync(elsewhere)).toEqual([])
  })
})
