import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tmpDir, writeTree } from '../../test/helpers/tmp'
import { runCliIn as run } from '../../test/helpers/cli'

const json = async (home: string, ...args: string[]) => JSON.parse((await run(home, ...args, '--json')).out)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date(2026, 2, 17, 21, 7))
})
afterEach(() => vi.useRealTimers())

describe('muster memory', () => {
  it("write appends to today's log (created with its header), search ranks, finds CJK, short queries and new entries", async () => {
    const root = tmpDir()
    const home = tmpDir()
    writeTree(join(root, 'p'), {
      '.muse/build.md': '<!-- L0: v1.0 | a | b -->\n',
      'MEMORIES.md':
        '# MEMORIES\n\n## Hub\n- **[DECISION] 跨机器委派一律走 hub** (source: memory/2026-03-15.md) [PERMANENT]\n- ~~**[FACT] hub 放在 Dropbox** (source: memory/2026-03-01.md) [TEMPORAL:2026-03-01]~~ → 已迁\n',
      'memory/2026-03-10.md': '# 2026-03-10\n\n## [BUILD] Session 1: 健康证明 PDF 导出\n\n- PDF 模板\n',
      'memory/2026-03-16.md': '# 2026-03-16\n\n## [QA] Session 1: 回归\n\n- AC3 FAIL 缺末尾换行\n'
    })
    await run(home, 'projects', 'add', join(root, 'p'))
    const w = await json(home, 'memory', 'write', '--project', 'p', '--section', 'build', 'shipped', 'v2.15.0')
    expect(w).toEqual({ file: 'memory/2026-03-17.md', line: 3, created: true })
    await run(home, 'memory', 'write', '--project', 'p', '健康证明 第二版')
    expect(readFileSync(join(root, 'p/memory/2026-03-17.md'), 'utf8')).toBe(
      '# 2026-03-17\n\n## [BUILD] 21:07\n\nshipped v2.15.0\n\n## 21:07\n\n健康证明 第二版\n'
    )

    const cjk = await json(home, 'memory', 'search', '健康证明')
    expect(cjk.mode).toBe('fts')
    expect(cjk.hits.map((h: { file: string; line: number }) => `${h.file}:${h.line}`).sort()).toEqual([
      'memory/2026-03-10.md:3',
      'memory/2026-03-17.md:9'
    ])
    const recent = await json(home, 'memory', 'search', '--scope', 'recent', '健康证明')
    expect(recent.hits.map((h: { file: string }) => h.file)).toEqual(['memory/2026-03-17.md'])
    const long = await json(home, 'memory', 'search', '--project', 'p', '--scope', 'longterm', 'hub')
    expect(long.hits.map((h: { line: number; kind: string }) => [h.line, h.kind])).toEqual(
      expect.arrayContaining([
        [4, 'DECISION'],
        [5, 'FACT~superseded']
      ])
    )
    const short = await json(home, 'memory', 'search', '--scope', 'recent', 'AC')
    expect(short.mode).toBe('like')
    expect(short.hits).toEqual([
      expect.objectContaining({ file: 'memory/2026-03-16.md', line: 5, date: '2026-03-16', text: '- AC3 FAIL 缺末尾换行' })
    ])
    // an edit outside Muster is picked up by the incremental sync
    writeFileSync(join(root, 'p/memory/2026-03-16.md'), '# 2026-03-16\n\n- 新条目 zebra\n')
    expect((await json(home, 'memory', 'search', 'zebra')).hits).toHaveLength(1)
    expect((await json(home, 'memory', 'search', 'AC3')).hits).toHaveLength(0)
    expect((await run(home, 'memory', 'search', 'x', '--scope', 'old')).err).toBe(
      "muster: invalid --scope 'old': use all, recent or longterm\n"
    )
    expect((await run(home, 'memory', 'search', 'hub')).out).toMatch(/^p\/MEMORIES\.md:\d+\n {2}- /)
  })
})

describe('muster lint', () => {
  it('reports every kind of finding with codes and lines', async () => {
    const root = tmpDir()
    const home = tmpDir()
    const p = join(root, 'p')
    writeTree(p, {
      '.muse/build.md':
        `<!-- L0: v1.0.0 | ${'长'.repeat(130)} -->\n📡 **S010→NOPE/QA**: 🟡 **x**\n📡 **S011→P/QA**: 🟡 **dup**\n` + 'l\n'.repeat(600),
      '.muse/gm.md': '# GM\n📡 **S011→P/QA**: 🟡 **dup**\n' + 'l\n'.repeat(900),
      '.muse/qa.md':
        '<!-- L0: v1.1.0 | ok | fine -->\n# QA\n\n---\n\n*QA v1 — footer*\n### 📡 S042→QA (2026-12-02 19:20) — 🟡 待处理\n> later\n',
      '.muse/paths.md': '# paths\n```\nSTRATEGY_PATH: /x/.muse/strategy.md\nnot a pair\n```\n'
    })
    execFileSync('git', ['init', '-q'], { cwd: p })
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: p })
    execFileSync('git', ['tag', 'v1.1.0'], { cwd: p })
    await run(home, 'projects', 'add', p)
    const r = await json(home, 'lint', '--project', 'p')
    const codes = r.findings.map((f: { code: string; file: string; line: number | null }) => `${f.code} ${f.file}:${f.line}`)
    expect(codes).toEqual(
      expect.arrayContaining([
        'l0-long build.md:1',
        'l0-stale build.md:1',
        'file-long build.md:null',
        'no-l0 gm.md:1',
        'file-too-long gm.md:null',
        'after-footer qa.md:7',
        'paths-malformed paths.md:4',
        'unresolved-target build.md:2',
        'duplicate-pending build.md:3',
        'duplicate-pending gm.md:2'
      ])
    )
    expect(codes.some((c: string) => c.startsWith('l0-stale qa.md'))).toBe(false)
    expect(r.errors).toBe(2)
    const human = await run(home, 'lint')
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^! p\/build\.md:1 {2}L0 is 139 chars \(limit 120\) \[l0-long\]$/m)
    expect(human.out).toMatch(/L0 stale: says v1\.0\.0, latest git tag is v1\.1\.0/)
    expect(human.out).toMatch(/S042→QA is written after the closing footer \(line 6\)/)
    expect(human.out).toMatch(/\n2 errors, \d+ warnings\n$/)
  })
})
