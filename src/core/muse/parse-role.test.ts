import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeUpstream, upstreamPath } from '../../../test/helpers/fixtures'
import { MAX_FORM_LINE } from './forms'
import { parseRole } from './parse-role'
import { bigRoleText } from '../../../test/helpers/big-role-file'

const FIXTURES = upstreamPath('muse-real', '.muse')
const real = (name: string) => parseRole(name, readFileSync(join(FIXTURES, name), 'utf8'))
const brief = (p: ReturnType<typeof parseRole>) =>
  p.directives.map((d) => `${d.form} ${d.id}→${d.target} ${d.mark} ${d.line}-${d.endLine} ${d.sectionKind}`)

describeUpstream('parseRole on the real MUSE files', () => {
  it('growth.md: every directive with id, target, mark and line range', () => {
    const g = real('growth.md')
    expect(brief(g)).toEqual([
      'head S040→MUSE/GROWTH done 172-194 received',
      'head S040v3→MUSE/GROWTH done 198-223 received',
      'head S041→MUSE/BUILD done 227-232 received',
      'head S042→MUSE/GROWTH done 236-251 received',
      'head S033→MUSE/GROWTH pending 255-285 received',
      'head S027→MUSE/GROWTH pending 289-303 received',
      'head S031→MUSE/GROWTH done 305-310 received',
      'head S025→MUSE/GROWTH done 312-317 received'
    ])
    const s033 = g.directives[4]!
    expect(s033).toMatchObject({
      date: '3/14',
      statusText: '待执行',
      title: 'MUSE 增长包装优化 — 竞品定位 + 差异化包装',
      file: 'growth.md',
      role: 'growth'
    })
    expect(g.directives[1]).toMatchObject({ id: 'S040v3', date: '3/15 10:38', statusText: '已完成' })
    expect(g.directives[3]!.statusText).toBe('已执行 (3/16 13:31)')
    // the 📡 BUILD→GROWTH notice sits in the wrong section (跨项目同步), has no status, and is still read
    expect(g.notices).toHaveLength(1)
    expect(g.notices[0]).toMatchObject({
      from: 'BUILD',
      to: 'GROWTH',
      date: '2026-03-16 16:44',
      mark: 'none',
      statusText: 'v2.16→v2.20 同步',
      line: 428,
      endLine: 445,
      section: '📡 跨项目同步'
    })
    // 内容日历 checkboxes are not under a TODO header
    expect(g.todos).toMatchObject({ open: 0, done: 0 })
    expect(g.lineCount).toBe(445)
  })

  it('build.md: receipts, notices with their trailing status lines, TODO progress per group', () => {
    const b = real('build.md')
    expect(brief(b).slice(0, 3)).toEqual([
      'head S029→MUSE/BUILD done 280-281 received',
      'head S035→MUSE/BUILD done 283-284 received',
      'head S037→MUSE/BUILD done 286-287 received'
    ])
    expect(b.directives.map((d) => d.id)).toEqual(['S029', 'S035', 'S037', 'S036', 'S039', 'S043', 'S041', 'S047'])
    expect(b.directives[0]).toMatchObject({ date: '3/13', statusText: '已接收 3/14 16:00', title: 'QA SOP 已修复' })
    expect(b.directives[7]).toMatchObject({ id: 'S047', line: 322, endLine: 332 })
    expect(b.notices.map((n) => `${n.from}→${n.to} ${n.date} ${n.mark} ${n.statusText} @${n.line}`)).toEqual([
      'GROWTH→BUILD 2026-03-16 00:14 done 已完成 @197',
      'QA→BUILD 2026-03-15 23:46 done BUILD 无需操作 @223',
      'QA→BUILD 2026-03-15 20:48 done BUILD 无需操作 @237',
      'QA→BUILD 2026-03-15 16:54 done BUILD 已处理 — 无需操作 @251',
      'QA→BUILD 2026-03-13 12:23 done BUILD 已处理 @263',
      'GROWTH→BUILD 2026-03-16 17:06 done 已接收 3/16 17:45 @295'
    ])
    // the `**🟡 P1 已修复**` label inside the 3/13 notice is not its status
    expect(b.notices[4]!.title).toBe('BUILD→QA 10 AC 全部 PASS')
    expect(b.todos.open).toBe(0)
    expect(b.todos.done).toBe(17)
    expect(b.todos.groups).toEqual([
      { group: 'P0 — 近期', open: 0, done: 4 },
      { group: 'P1 — 下版本', open: 0, done: 3 },
      { group: 'P0 — 竞品技术吸收进化 (GROWTH→BUILD 3/15)', open: 0, done: 7 },
      { group: 'P2 — 下阶段 (按优先级)', open: 0, done: 3 }
    ])
    const kinds = b.sections
      .filter((s) => s.kind !== 'other' && s.kind !== 'directive' && s.kind !== 'notice')
      .map((s) => `${s.line} ${s.kind}`)
    expect(kinds).toEqual(['11 boundaries', '23 techStack', '61 todo', '195 notices', '221 notices', '278 received', '336 changelogRules'])
    expect(b.sections.find((s) => s.line === 278)).toMatchObject({ level: 2, endLine: 335 })
  })

  it('qa.md: the ## lines of the report template inside a fence are not sections; S0XX is not a directive; footer found', () => {
    const q = real('qa.md')
    expect(q.sections.some((s) => s.title.startsWith('QA Report — [Task Name]'))).toBe(false)
    expect(q.sections.some((s) => s.title === 'QA Report — BUILD→QA v2.15.0 MCP Server (10 ACs)')).toBe(true)
    expect(q.directives).toEqual([])
    expect(q.notices).toEqual([])
    expect(q.footer).toEqual({ ruleLine: 224, line: 226, closing: true })
    expect(q.l0?.version).toBeNull()
  })

  it('gm.md: no directives, no TODO section, boundaries found', () => {
    const g = real('gm.md')
    expect(g.directives).toEqual([])
    expect(g.todos.items).toEqual([])
    expect(g.sections.filter((s) => s.kind === 'boundaries').map((s) => s.line)).toEqual([12])
  })
})

describe('parseRole edge cases (spec section 7)', () => {
  const spec = '📡 **S041→MUSE/BUILD**: 🟡 **竞品深度调研回传**\n> body 1\n> body 2\n\nafter\n'

  it('reads the SPEC form with its blockquote body', () => {
    const p = parseRole('strategy.md', `# S\n\n## 📡 战略指令队列\n\n${spec}`)
    expect(p.directives).toEqual([
      expect.objectContaining({
        form: 'spec',
        id: 'S041',
        target: 'MUSE/BUILD',
        mark: 'pending',
        title: '竞品深度调研回传',
        body: 'body 1\nbody 2',
        line: 5,
        endLine: 7,
        sectionKind: 'outgoing'
      })
    ])
    expect(p.statusAt.get(5)).toBe('📡 **S041→MUSE/BUILD**: '.length)
  })

  it('BOM and CRLF give the same result as LF', () => {
    const lf = parseRole('s.md', `<!-- L0: v1.0 | x | y -->\n## ⏳ 待办\n- [ ] a\n- [x] b\n\n${spec}`)
    const crlf = parseRole('s.md', '\uFEFF' + `<!-- L0: v1.0 | x | y -->\n## ⏳ 待办\n- [ ] a\n- [x] b\n\n${spec}`.replace(/\n/g, '\r\n'))
    expect(crlf.directives).toEqual(lf.directives)
    expect(crlf.todos).toEqual(lf.todos)
    expect(crlf.l0?.version).toBe('v1.0')
    expect(crlf.directives[0]!.body).toBe('body 1\nbody 2')
  })

  it('emoji with and without VS16 match the same headers and directives', () => {
    const p = parseRole(
      'x.md',
      '## 📡\uFE0F 已接收战略指令\n### 📡\uFE0F S042→QA (2026-12-02 19:20) — 🟡 待处理\n> t\n## 🛠\uFE0F  技术栈\n## 🛠 技术栈\n📡\uFE0F **S043→QA**: ✅ **done**\n'
    )
    expect(p.sections.map((s) => s.kind)).toEqual(['received', 'directive', 'techStack', 'techStack'])
    expect(p.sections[2]!.title).toBe('🛠 技术栈')
    expect(p.directives.map((d) => `${d.form} ${d.id} ${d.mark} ${d.date}`)).toEqual([
      'head S042 pending 2026-12-02 19:20',
      'spec S043 done null'
    ])
  })

  it('headings and directives inside code fences are skipped (``` and ~~~, longer fences)', () => {
    const p = parseRole(
      'x.md',
      '# A\n```markdown\n## not a header\n📡 **S001→QA**: 🟡 **no**\n```\n~~~~\n### S002→QA (1/1) 🟡\n```\n~~~~\n## real\n'
    )
    expect(p.sections.map((s) => s.title)).toEqual(['A', 'real'])
    expect(p.directives).toEqual([])
  })

  it('TODO headers at any level with sub-header groups; [/] counts open; closes at a same-level header', () => {
    const p = parseRole(
      'x.md',
      '## Work\n### ⏳ 待办 (按优先级)\n#### P0 — 近期\n- [ ] a\n- [x] b\n  - [/] c\n#### P1\n* [X] d\n### Other\n- [ ] not a todo\n## 🎯 TODO\n- [ ] e\n'
    )
    expect(p.todos.groups).toEqual([
      { group: 'P0 — 近期', open: 2, done: 1 },
      { group: 'P1', open: 0, done: 1 },
      { group: null, open: 1, done: 0 }
    ])
    expect(p.todos.items.map((i) => i.line)).toEqual([4, 5, 6, 8, 12])
  })

  it('status-like labels, table cells and placeholders are not directives', () => {
    const p = parseRole(
      'x.md',
      '**🟡 P1 已修复 (ec22dad)**:\n| S041→MUSE/BUILD | 🟡 |\n📡 **S0XX→QA**: 🟡 **placeholder**\n📡 S4→QA: too short\n### Role B→QA (2026-01-01 10:00)\n> 📡 S041→QA: quoted\n'
    )
    expect(p.directives).toEqual([])
    expect(p.notices).toEqual([])
  })

  it('LOOSE form with and without a status; id suffixes S040v3 and S229+', () => {
    const p = parseRole(
      'x.md',
      '📡 S025→DYA/GM: V1.2.0 加入健康证明功能\n📡 S041→MUSE/BUILD: 🟡 竞品\n📡 **S229+→ALL**: ✅ **plus** — 已传递 2026-01-01 10:00\n### S040v3→MUSE/GROWTH (3/15 10:38) ✅ 已完成\n'
    )
    expect(p.directives.map((d) => `${d.form} ${d.id}→${d.target} ${d.mark} ${d.title}`)).toEqual([
      'loose S025→DYA/GM none V1.2.0 加入健康证明功能',
      'loose S041→MUSE/BUILD pending 竞品',
      'spec S229+→ALL done plus',
      'head S040v3→MUSE/GROWTH done 已完成'
    ])
    expect(p.directives[2]!.statusText).toBe('— 已传递 2026-01-01 10:00')
  })

  it('directive headings at H3 inside other sections keep their container; the same S-id for several targets', () => {
    const p = parseRole('x.md', '## 📋 Notes\n### S042→MUSE/QA (3/1) 🟡 待执行\ntext\n### S042→MUSE/BUILD (3/1) ✅ 已接收\n')
    expect(p.directives.map((d) => `${d.id}→${d.target} ${d.section} ${d.sectionKind}`)).toEqual([
      'S042→MUSE/QA 📋 Notes other',
      'S042→MUSE/BUILD 📋 Notes other'
    ])
  })

  it('a notice status comes from its header or from a later status line', () => {
    const p = parseRole(
      'build.md',
      '## 📡 QA→BUILD 通知\n### 📡 QA→BUILD 通知 (2026-03-15 23:46)\n> ❌ **FAIL**\n\n🟡 待 BUILD 处理\n\n---\n### 📡 GROWTH→BUILD (2026-03-16 17:06) — ✅ 已接收 3/16 17:45\n> x\n'
    )
    expect(p.notices.map((n) => `${n.from}→${n.to} ${n.mark} ${n.statusText} ${n.title} ${n.line}-${n.endLine}`)).toEqual([
      'QA→BUILD pending 待 BUILD 处理 FAIL 2-5',
      'GROWTH→BUILD done 已接收 3/16 17:45 x 8-9'
    ])
  })

  it('finds a closing footer and the directives written after it', () => {
    const p = parseRole(
      'qa.md',
      '# QA\n## Results\nok\n\n---\n\n*MUSE QA v1.0 — Evidence*\n### 📡 S042→QA (2026-12-02 19:20) — 🟡 待处理\n> do it\n'
    )
    expect(p.footer).toEqual({ ruleLine: 5, line: 7, closing: true })
    expect(p.directives[0]!.line).toBe(8)
    const mid = parseRole('x.md', '# A\n---\n*note*\n## Later section\n')
    expect(mid.footer?.closing).toBe(false)
  })

  it('a directive after a closing footer belongs to no section (not received); after a footer that is not closing, to its section', () => {
    const text =
      '# BUILD\n## 📡 Received Directives\n### S001→MUSE/BUILD (3/1) — ✅ 已接收\n> ok\n\n---\n\n*MUSE BUILD v1.0*\n📡 **S002→MUSE/BUILD**: 🟡 **late**\n### S003→MUSE/BUILD (3/2) — 🟡 待处理\n> late too\n'
    const p = parseRole('build.md', text)
    expect(p.footer).toMatchObject({ line: 8, closing: true })
    expect(p.directives.map((d) => `${d.id} ${d.mark} ${d.sectionKind} ${d.section}`)).toEqual([
      'S001 done received 📡 Received Directives',
      'S002 pending other null',
      'S003 pending other null'
    ])
    const mid = parseRole('build.md', '# BUILD\n## 📡 Received Directives\n---\n*note*\n📡 **S002→MUSE/BUILD**: 🟡 **x**\n## Later\n')
    expect(mid.footer?.closing).toBe(false)
    expect(mid.directives[0]).toMatchObject({ id: 'S002', sectionKind: 'received', section: '📡 Received Directives' })
  })

  it("the last section ends at the file's last line (wc -l with a final newline, the last line without)", () => {
    for (const eol of ['\n', '\r\n']) {
      const lines = ['# A', '## B', 'text', '## C', 'last']
      const withNewline = parseRole('x.md', lines.join(eol) + eol)
      expect(withNewline.lineCount).toBe(5)
      expect(withNewline.sections.map((s) => `${s.title} ${s.line}-${s.endLine}`)).toEqual(['A 1-5', 'B 2-3', 'C 4-5'])
      expect(parseRole('x.md', lines.join(eol)).sections.map((s) => s.endLine)).toEqual([5, 3, 5])
    }
  })

  it('no L0, empty file, 0/1 pipe L0', () => {
    expect(parseRole('x.md', '# none\n').l0).toBeNull()
    expect(parseRole('x.md', '')).toMatchObject({ l0: null, lineCount: 0, sections: [], directives: [] })
    expect(parseRole('x.md', '<!-- L0: 只有文字 -->\n').l0).toMatchObject({ version: null, topPriority: '只有文字' })
    expect(parseRole('x.md', '<!-- L0: v1.0 | 一个 -->\n').l0).toMatchObject({ version: 'v1.0', topPriority: '一个' })
  })

  it('parses a 250 KB file with 10 KB lines (its time is measured by npm run bench)', () => {
    const text = bigRoleText()
    expect(text.length).toBeGreaterThan(240_000)
    const p = parseRole('big.md', text)
    expect(p.directives).toHaveLength(12)
    expect(
      p.directives
        .map((d) => d.form)
        .sort()
        .join()
    ).toBe('head,head,head,head,head,head,spec,spec,spec,spec,spec,spec')
  })

  it('a 10 MB line in any form leaves the file readable: that line is no directive, the rest parses', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024)
    const ok = '📡 **S100→QA**: 🟡 **ordinary**'
    for (const line of [
      `📡 **S902→BUILD**: 🟡 **${huge}**`,
      `📡 S902→BUILD: ${huge}`,
      `### S902→BUILD (3/13) — ✅ ${huge}`,
      `## 📡 S902 — ${huge}`,
      `### 📡 QA→BUILD 通知 (2026-03-15 23:46) ${huge}`
    ]) {
      const p = parseRole('build.md', `# T\n## 📡 已接收战略指令\n${line}\n\n${ok}\n`)
      expect(p.directives.map((d) => d.id)).toEqual(['S100'])
    }
    // up to the limit every form still reads
    const long = 'y'.repeat(MAX_FORM_LINE - 40)
    expect(parseRole('build.md', `# T\n## 📡 已接收战略指令\n📡 **S902→BUILD**: 🟡 **${long}**\n`).directives[0]).toMatchObject({
      id: 'S902',
      title: long
    })
  })
})
