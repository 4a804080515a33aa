/**
 * parseRole on the project's own corpus (test/fixtures/fleet, see its README): every structural
 * case the real upstream files have, asserted to the line. Runs always; the same checks against
 * the real files are in parse-role.test.ts (when ../shared exists).
 */
import { describe, expect, it } from 'vitest'
import { corpusRole } from '../../../test/helpers/fixtures'
import { parseRole } from './parse-role'

const parse = (project: string, file: string) => parseRole(file, corpusRole(project, file))
const brief = (p: ReturnType<typeof parseRole>) =>
  p.directives.map((d) => `${d.form} ${d.id}→${d.target} ${d.mark} ${d.line}-${d.endLine} ${d.sectionKind}`)

describe('parseRole on the own corpus: orbit (a satellite project)', () => {
  it('growth.md: HEAD directives of an English, VS16 received header; a notice in the wrong section; no TODO section', () => {
    const g = parse('orbit', 'growth.md')
    expect(brief(g)).toEqual([
      'head S114v2→ORBIT/GROWTH done 66-73 received',
      'head S108→ORBIT/GROWTH pending 77-87 received',
      'head S105→ORBIT/GROWTH done 91-93 received',
      'head S101→ORBIT/BUILD done 97-101 received'
    ])
    expect(g.sections.find((s) => s.line === 64)).toMatchObject({
      title: '📡 Received Directives',
      kind: 'received',
      level: 2,
      endLine: 104
    })
    expect(g.directives[0]).toMatchObject({
      id: 'S114v2',
      date: '3/30 10:15',
      statusText: '已完成',
      title: 'Launch week 素材 v2 — 每帖 3 图 + 终端录屏'
    })
    expect(g.directives[1]).toMatchObject({
      date: '3/25',
      statusText: '待执行',
      title: '竞品对比页 — Orbit vs Turborepo vs Nx vs just',
      file: 'growth.md',
      role: 'growth',
      section: '📡 Received Directives'
    })
    // the table inside S108's body (with ✅ cells) stays in its body
    expect(g.directives[1]!.body).toContain('| 面向 agent 的日志 | ✅ | — | — |')
    expect(g.directives[2]!.statusText).toBe('已执行 (3/24 11:02)')
    // a copy of another role's directive (S101 went to BUILD) is read with its own target
    expect(g.directives[3]).toMatchObject({ date: '3/20 18:00', statusText: '已接收', title: '插件 API 冻结 v1 (抄送 Growth)' })
    // the BUILD→GROWTH notice sits under 跨项目同步 (not a notices section) and has no status
    expect(g.notices).toEqual([
      expect.objectContaining({
        from: 'BUILD',
        to: 'GROWTH',
        date: '2026-03-30 18:44',
        mark: 'none',
        statusText: 'v1.7→v1.8 同步',
        title: 'Retry budget 即将发布, Growth 需准备素材',
        line: 127,
        endLine: 137,
        section: '📡 跨项目同步'
      })
    ])
    // 内容日历 checkboxes (and the notice's) are not under a TODO header
    expect(g.todos).toMatchObject({ open: 0, done: 0, items: [] })
    // the ### lines inside <details> are ordinary sections
    expect(g.sections.filter((s) => s.line >= 105 && s.line <= 120).map((s) => `${s.line} ${s.kind}`)).toEqual([
      '105 other',
      '110 other',
      '114 other'
    ])
    expect(g.lineCount).toBe(137)
  })

  it('build.md: receipts, notices with trailing status lines, a status-like label, TODO groups, section kinds', () => {
    const b = parse('orbit', 'build.md')
    expect(brief(b)).toEqual([
      'head S101→ORBIT/BUILD done 139-140 received',
      'head S104→ORBIT/BUILD done 142-143 received',
      'head S107→ORBIT/BUILD done 145-146 received',
      'head S110→ORBIT/BUILD done 156-159 received'
    ])
    expect(b.directives[0]).toMatchObject({
      date: '3/20',
      statusText: '已接收 3/21 09:30',
      title: '插件 API 冻结为 v1',
      section: '📡 已接收战略指令'
    })
    expect(b.directives[2]).toMatchObject({ statusText: 'Strategy 直接执行 (不需拉取)', title: 'CI 模板修复' })
    expect(b.directives[3]!.body).toBe(
      '> **🔴 Retry budget (P0)** — 每个 task 默认 3 次重试, 全局上限 20, 超出时整个 run 失败并打印预算表。\n>\n> **AC**: 见 qa.md「BUILD→QA v1.8.0」。'
    )
    expect(b.notices.map((n) => `${n.from}→${n.to} ${n.date} ${n.mark} ${n.statusText} @${n.line}-${n.endLine} ${n.section}`)).toEqual([
      'GROWTH→BUILD 2026-03-28 11:20 done 已完成 @91-104 📡 GROWTH→BUILD 通知',
      'QA→BUILD 2026-03-31 22:05 pending 待 BUILD 处理 @110-118 📡 QA→BUILD 通知',
      'QA→BUILD 2026-03-29 19:40 done BUILD 已处理 @122-133 📡 QA→BUILD 通知',
      // a notice placed in the received section, status in its header after an em dash
      'GROWTH→BUILD 2026-03-30 16:12 done 已接收 3/30 17:00 @148-154 📡 已接收战略指令'
    ])
    // `**🟡 P1 已修复 (3f9a2c1)**:` inside the 3/29 notice is a label: the status is its last line
    expect(b.notices[2]).toMatchObject({ mark: 'done', title: 'BUILD→QA v1.7.0 — 6 AC 全部 PASS' })
    expect(b.notices[1]!.title).toBe('BUILD→QA v1.8.0 Retry Budget — 5/6 AC PASS, AC4 FAIL')
    // ✅ 已完成 checkboxes are not TODO items; [/] counts open; the 🟡 table cells are nothing
    expect(b.todos).toMatchObject({ open: 5, done: 3 })
    expect(b.todos.groups).toEqual([
      { group: 'P0 — 近期', open: 2, done: 1 },
      { group: 'P1 — 下版本', open: 2, done: 1 },
      { group: 'P2 — 竞品吸收 (GROWTH→BUILD 3/28)', open: 1, done: 1 }
    ])
    expect(b.todos.items.map((i) => i.line)).toEqual([47, 48, 49, 52, 53, 54, 67, 70])
    const kinds = b.sections
      .filter((s) => s.kind !== 'other' && s.kind !== 'directive' && s.kind !== 'notice')
      .map((s) => `${s.line} ${s.kind}`)
    expect(kinds).toEqual(['11 boundaries', '22 techStack', '44 todo', '89 notices', '108 notices', '137 received', '161 changelogRules'])
    // `## 🛠️ 技术栈` is written with VS16; the title is normalised without it
    expect(b.sections.find((s) => s.line === 22)!.title).toBe('🛠 技术栈')
    expect(b.sections.find((s) => s.line === 137)).toMatchObject({ level: 2, endLine: 160 })
    // `## 🎯 BUILD→QA: ✅ 已验证 AC` carries ✅ but is neither a directive, a notice nor a TODO header
    expect(b.sections.find((s) => s.line === 74)).toMatchObject({ kind: 'other' })
    expect(b.footer).toBeNull()
    expect(b.lineCount).toBe(175)
  })

  it('qa.md: headings inside ``` and ~~~ fences are not sections; S0XX placeholders are not directives; closing footer', () => {
    const q = parse('orbit', 'qa.md')
    expect(q.sections.map((s) => `${s.line} ${s.title}`)).toEqual([
      '2 🔍 QA — Quality Assurance',
      '6 🚀 How to Start QA (Quick Reference)',
      '23 📋 QA SOP',
      '25 Step 1: Confirm the AC source',
      '32 Step 2: Verify each AC',
      '38 Step 3: Inbox format',
      '49 QA Report Template',
      '72 Recent QA Results',
      '74 QA Report — BUILD→QA v1.8.0-rc.1 Retry Budget (6 ACs)',
      '87 Verdict'
    ])
    // `### 📡 S0XX→QA (...) — 🟡 待处理` inside the ~~~ fence, and `S0XX` in tables
    expect(q.directives).toEqual([])
    expect(q.notices).toEqual([])
    expect(q.footer).toEqual({ ruleLine: 101, line: 103, closing: true })
    expect(q.l0).toMatchObject({ version: null, topPriority: '最近QA: v1.8.0-rc.1 5/6 PASS' })
    expect(q.todos.items).toEqual([])
    expect(q.lineCount).toBe(103)
  })

  it('gm.md: no directives, no TODO section (路线图 checkboxes), boundaries found, a 📡 header that is neither queue nor notices', () => {
    const g = parse('orbit', 'gm.md')
    expect(g.directives).toEqual([])
    expect(g.notices).toEqual([])
    expect(g.todos.items).toEqual([])
    expect(g.sections.filter((s) => s.kind === 'boundaries').map((s) => s.line)).toEqual([12])
    expect(g.sections.find((s) => s.line === 59)).toMatchObject({ title: '📡 跨项目同步指令', kind: 'other' })
    expect(g.sections.find((s) => s.line === 24)).toMatchObject({ title: '🎯 项目定位', kind: 'other' })
    expect(g.lineCount).toBe(69)
  })

  it('research.md: a file made by /role has no L0; English headers are classified', () => {
    const r = parse('orbit', 'research.md')
    expect(r.l0).toBeNull()
    expect(r.sections.map((s) => `${s.line} ${s.kind}`)).toEqual(['1 other', '5 boundaries', '10 todo', '16 other'])
    expect(r.todos).toMatchObject({ open: 2, done: 1, groups: [{ group: null, open: 2, done: 1 }] })
    expect(r.lineCount).toBe(18)
  })
})

describe('parseRole on the own corpus: helm (the hub project)', () => {
  it('strategy.md: SPEC and LOOSE forms, VS16 after 📡, id suffixes, the same id for two targets', () => {
    const s = parse('helm', 'strategy.md')
    expect(s.directives.map((d) => `${d.form} ${d.id}→${d.target} ${d.mark} ${d.line}-${d.endLine} ${d.sectionKind}`)).toEqual([
      'spec S101→ORBIT/BUILD done 27-29 outgoing',
      'spec S104→ORBIT/BUILD done 31-32 outgoing',
      'spec S105→ORBIT/GROWTH done 34-35 outgoing',
      'spec S108→ORBIT/GROWTH pending 37-38 outgoing',
      'spec S110→ORBIT/BUILD done 40-41 outgoing',
      'spec S111+→OPS done 43-44 outgoing',
      'spec S112→ORBIT/BUILD pending 46-48 outgoing',
      'spec S112→ORBIT/QA pending 50-51 outgoing',
      'spec S113→ALL pending 53-54 outgoing',
      'spec S114v2→ORBIT/GROWTH done 56-57 outgoing',
      'loose S098→KITE/GM none 59-59 outgoing',
      'loose S099→LUMEN/BUILD pending 60-60 outgoing'
    ])
    expect(s.directives[0]).toMatchObject({
      title: '插件 API 冻结为 v1',
      statusText: '— 已传递 2026-03-21 09:30',
      body: '`definePlugin()` 签名冻结, 破坏性改动走 v2 命名空间。\n随 v1.6.0 发布。',
      date: null
    })
    expect(s.directives[6]).toMatchObject({
      title: 'Retry budget 默认值下调到 2',
      statusText: '',
      body: '线上数据: 92% 的成功重试发生在第 1-2 次。\n默认值改为 2, 全局上限不变。'
    })
    expect(s.directives[8]!.title).toBe('四月冻结窗口 4/10-4/17')
    expect(s.directives[10]).toMatchObject({ title: 'Kite 暂停, 资源转 Orbit', body: '' })
    expect(s.directives[11]!.title).toBe('build.md 超过 250 KB, 先归档再开新版本')
    // status offsets (in the VS16-stripped line) for pickup: SPEC, SPEC after 📡️, LOOSE, LOOSE without status
    expect(s.statusAt.get(46)).toBe('📡 **S112→ORBIT/BUILD**: '.length)
    expect(s.statusAt.get(53)).toBe('📡 **S113→ALL**: '.length)
    expect(s.statusAt.get(60)).toBe('📡 S099→LUMEN/BUILD: '.length)
    expect(s.statusAt.has(59)).toBe(false)
    // ✅/🟡 in the 决策记录 table are labels
    expect(s.sections.map((x) => `${x.line} ${x.kind}`)).toEqual(['2 other', '7 boundaries', '17 other', '25 outgoing', '64 other'])
    expect(s.l0).toMatchObject({ version: 'v0.9.0', topPriority: 'S112 派发中' })
  })

  it('ops.md: BOM + CRLF parse exactly like the LF text; the MCP-written form after the closing footer belongs to no section', () => {
    const raw = corpusRole('helm', 'ops.md')
    expect(raw.startsWith('\uFEFF<!-- L0:')).toBe(true)
    expect(raw.split('\n').every((l, i, all) => l.endsWith('\r') || i === all.length - 1)).toBe(true)
    const o = parseRole('ops.md', raw)
    const lf = parseRole('ops.md', raw.slice(1).replace(/\r\n/g, '\n'))
    expect(o.directives).toEqual(lf.directives)
    expect(o.notices).toEqual(lf.notices)
    expect(o.sections).toEqual(lf.sections)
    expect(o.todos).toEqual(lf.todos)
    expect(o.footer).toEqual(lf.footer)
    expect(o.l0).toEqual(lf.l0)
    expect(o.directives.map((d) => `${d.form} ${d.id}→${d.target} ${d.mark} ${d.line}-${d.endLine} ${d.sectionKind} ${d.section}`)).toEqual(
      ['head S111+→HELM/OPS done 27-28 received 📡 已接收战略指令', 'head S115→OPS pending 41-43 other null']
    )
    // no \r leaks into any value
    expect(o.directives[1]).toMatchObject({ date: '2026-04-01 21:10', statusText: '待处理', title: '备份演练改到周六 4/4 10:00' })
    expect(o.directives[1]!.body).toBe('> 备份演练改到周六 4/4 10:00\n演练结束后在本文件「待办」里勾掉, 并把恢复耗时写进 memory。')
    expect(o.footer).toEqual({ ruleLine: 37, line: 39, closing: true })
    expect(o.sections.map((s) => `${s.line} ${s.kind} ${s.title}`)).toEqual([
      '2 other Helm 运维 (Ops)',
      '6 boundaries 📐 Role boundaries',
      '13 techStack 🛠 Tech stack',
      '19 todo ⏳ 待办',
      '25 received 📡 已接收战略指令',
      '27 directive S111+→HELM/OPS (3/27) — ✅ 已接收 3/28 08:00',
      '30 other 📋 Runbook',
      '41 directive 📡 S115→OPS (2026-04-01 21:10) — 🟡 待处理'
    ])
    expect(o.todos).toMatchObject({ open: 2, done: 1 })
    expect(o.statusAt.get(41)).toBe('### 📡 S115→OPS (2026-04-01 21:10) — '.length)
    expect(o.lineCount).toBe(43)
  })
})

describe('parseRole on the own corpus: lumen (a 250 KB file with 5-10 KB lines)', () => {
  const text = corpusRole('lumen', 'build.md')

  it('is the size of the large real files', () => {
    expect(Buffer.byteLength(text)).toBeGreaterThan(250_000)
    const long = text.split('\n').filter((l) => Buffer.byteLength(l) > 5_000)
    expect(long.length).toBeGreaterThanOrEqual(25)
    expect(Math.max(...long.map((l) => Buffer.byteLength(l)))).toBeLessThan(10_000)
  })

  it('finds the directive buried in the session log and the H4 receipts at the end', () => {
    const b = parseRole('build.md', text)
    expect(brief(b)).toEqual([
      'head S096→LUMEN/BUILD pending 124-125 other',
      'head S071→LUMEN/BUILD done 519-520 received',
      'head S083→LUMEN/BUILD done 522-523 received',
      'head S092→LUMEN/BUILD done 525-526 received',
      'head S099→LUMEN/BUILD done 528-529 received'
    ])
    expect(b.directives[0]).toMatchObject({ section: '📦 Session 记录', statusText: '待执行', title: '导出 Markdown 时保留 front matter' })
    expect(b.directives[1]!.title).toBe('存储层迁移到 SQLite')
    expect(b.directives[1]!.body.length).toBeGreaterThan(5_000)
    expect(b.directives[3]).toMatchObject({ date: '3/01 14:30', statusText: '已接收 3/01 15:02', title: '冻结前的最后一批 P0' })
    // the receipts queue is `## 📡 指令接收队列`; the 5 KB `### vX (date) — 热修合集; ...` headers are ordinary sections
    expect(b.sections.find((s) => s.line === 517)).toMatchObject({ kind: 'received', title: '📡 指令接收队列', level: 2 })
    expect(b.sections.filter((s) => s.title.includes('热修合集')).map((s) => s.line)).toEqual([66, 160, 247, 334, 420, 506])
    expect(b.todos).toMatchObject({ open: 3, done: 1, groups: [{ group: null, open: 3, done: 1 }] })
    expect(b.todos.items[3]!.text.length).toBeGreaterThan(4_000)
    expect(b.lineCount).toBe(529)
  })
})
