import { describe, expect, it } from 'vitest'
import { chunksOf, parseMemories } from './memory-files'

describe('MEMORIES.md', () => {
  it('parses kinds, sources, tags, topics and superseded entries', () => {
    const text = '# MEMORIES\n\n## 版本与发布\n- **[FACT] v2.22.0 = Memory Loss Prevention** (source: memory/2026-03-15.md) [EPISODIC]\n- **[LESSON] patch 必须保留末尾换行** (source: memory/2026-03-16.md) [PERMANENT]\n- ~~**[FACT] hub 放在 Dropbox** (source: memory/2026-03-01.md) [TEMPORAL:2026-03-01]~~ → 已迁\n- plain note\n```\n- **[FACT] in a fence**\n```\n## Other\n- **[DECISION] x** [DECAY]\n'
    expect(parseMemories(text)).toEqual([
      { topic: '版本与发布', kind: 'FACT', text: 'v2.22.0 = Memory Loss Prevention', source: 'memory/2026-03-15.md', tags: ['EPISODIC'], superseded: false, line: 4 },
      { topic: '版本与发布', kind: 'LESSON', text: 'patch 必须保留末尾换行', source: 'memory/2026-03-16.md', tags: ['PERMANENT'], superseded: false, line: 5 },
      { topic: '版本与发布', kind: 'FACT', text: 'hub 放在 Dropbox', source: 'memory/2026-03-01.md', tags: ['TEMPORAL:2026-03-01'], superseded: true, line: 6 },
      { topic: 'Other', kind: 'DECISION', text: 'x', source: null, tags: ['DECAY'], superseded: false, line: 12 }
    ])
  })

  it('daily logs are cut into paragraphs with their first line', () => {
    expect(chunksOf('memory/2026-03-15.md', '# 2026-03-15\n\n## [BUILD] Session 1: x (09:00-10:00)\n\n### 完成\n- a\n- b\n\n### 决策\n- c\n')).toEqual([
      { line: 1, text: '# 2026-03-15', kind: null },
      { line: 3, text: '## [BUILD] Session 1: x (09:00-10:00)', kind: null },
      { line: 5, text: '### 完成\n- a\n- b', kind: null },
      { line: 9, text: '### 决策\n- c', kind: null }
    ])
  })
})
