/**
 * Directive forms real role files use beyond the spec's four (docs/muse-directive-forms.md):
 * table rows under the received section and `## 📡 S109 — title (...)` announcements, read from
 * test/fixtures/forms/relay (own content in those forms) through `muster directives --json`,
 * `muster lint`, the role summary counts and pickup; the fleet scan's digest equals the parse.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../test/helpers/fixtures'
import { tmpDir } from '../../test/helpers/tmp'
import { digestOf, parseRole } from '../core/muse/parse-role'
import { digestRole } from '../core/muse/role-digest'
import { runCliIn as run } from '../../test/helpers/cli'

const RELAY = join(REPO_ROOT, 'test', 'fixtures', 'forms', 'relay')

/** A home with a writable copy of the relay project registered. */
async function relay(): Promise<{ home: string; dir: string }> {
  const dir = join(tmpDir(), 'relay')
  cpSync(RELAY, dir, { recursive: true })
  const home = tmpDir()
  expect((await run(home, 'projects', 'add', dir)).code).toBe(0)
  return { home, dir }
}

interface Listed {
  key: string
  state: string
  title: string
  occurrences: { form: string; mark: string; statusText: string; line: number; date: string | null }[]
}

describe('table rows and announcement headings', () => {
  const text = readFileSync(join(RELAY, '.muse', 'build.md'), 'utf8')

  it('parses every row and heading with its state text; the scan digest equals the parse', () => {
    const p = parseRole('build.md', text)
    expect(
      p.directives.map((d) => `${d.form} ${d.id}→${d.target} ${d.mark} ${d.line} ${d.sectionKind} | ${d.title} | ${d.statusText}`)
    ).toEqual([
      'row S177→ pending 12 received | 中继队列背压 (P0) | 待执行 — 等 S170 的压测数据',
      'row S090→ done 13 received | 日志轮转改为按大小 | 已接收 — 待执行',
      'row S088→ done 14 received | 重试上限可配置 | 已完成 11/18',
      'row S086→RELAY/BUILD done 15 received | 旧版清理 | 已传递',
      'row S084→ none 16 received | 无状态列的一行 | ',
      'announce S109→ pending 21 other | 发布窗口冻结 (Strategy 4/5 23:35 · P0 Launch Blocker) | 待执行',
      'announce S112→ done 27 other | 指标面板迁移 | 已完成 12/02',
      'announce S114→ none 31 other | 无状态的公告 (Strategy 12/03 09:10) | '
    ])
    expect(p.directives.find((d) => d.id === 'S109')).toMatchObject({ date: '4/5 23:35', endLine: 25 })
    expect(p.directives.find((d) => d.id === 'S114')?.date).toBe('12/03 09:10')
    expect(p.statusLine.get(21)).toBe(25)
    // the S-id in the second column and the note below the table matched no form
    expect(p.unmatched.map((u) => u.line)).toEqual([17, 19])
    // TODO items naming S-ids are TODO items, not unmatched directive lines
    expect(p.todos).toMatchObject({ open: 1, done: 1 })
    expect(digestRole('build.md', Buffer.from(text))).toEqual(digestOf(p))
  })

  it('a table in a HEAD receipt body stays body; rows outside a directives section are no directives', () => {
    const t = [
      '## 📡 已接收战略指令',
      '',
      '### S050→X/BUILD (3/1) — ✅ 已接收 3/2 10:00',
      '| S051 part of S050 | ✅ |',
      '',
      '## Notes',
      '| S052 table elsewhere | 🟡 |'
    ].join('\n')
    const p = parseRole('build.md', t)
    expect(p.directives.map((d) => d.id)).toEqual(['S050'])
    expect(p.unmatched).toEqual([])
    expect(digestRole('build.md', Buffer.from(t))).toEqual(digestOf(p))
  })

  it('muster directives --json lists each with its state; lint names the unmatched lines; counts include 🟡 rows', async () => {
    const { home } = await relay()
    const r = await run(home, 'directives', '--json')
    expect(r.code).toBe(0)
    const listed = JSON.parse(r.out) as { directives: Listed[] }
    const states = Object.fromEntries(listed.directives.map((d) => [d.key, d.state]))
    expect(states).toEqual({
      'S177→RELAY/BUILD': 'pending',
      'S090→RELAY/BUILD': 'received',
      'S088→RELAY/BUILD': 'received',
      'S086→RELAY/BUILD': 'received',
      'S084→RELAY/BUILD': 'received',
      'S109→RELAY/BUILD': 'pending',
      'S112→RELAY/BUILD': 'received',
      'S114→RELAY/BUILD': 'untracked',
      'S120→RELAY/产品': 'pending'
    })
    const s177 = listed.directives.find((d) => d.key === 'S177→RELAY/BUILD')!
    expect(s177.occurrences.map((o) => `${o.form} ${o.mark}`).sort()).toEqual(['row pending', 'spec pending'])
    const pending = JSON.parse((await run(home, 'directives', '--pending', '--json')).out) as { directives: Listed[] }
    expect(pending.directives.map((d) => d.key).sort()).toEqual(['S109→RELAY/BUILD', 'S120→RELAY/产品', 'S177→RELAY/BUILD'])

    const lint = await run(home, 'lint', '--json')
    const findings = (JSON.parse(lint.out) as { findings: { code: string; file: string; line: number; message: string }[] }).findings
    const unmatched = findings.filter((f) => f.code === 'unmatched-directive')
    expect(unmatched.map((f) => `${f.file}:${f.line}`)).toEqual(['build.md:17', 'build.md:19'])
    expect(unmatched[0]!.message).toContain('| 11/05 | S081 写在第二列 | 🟡 待执行 |')
    expect(findings.filter((f) => f.code === 'unresolved-target')).toEqual([])

    const roles = JSON.parse((await run(home, 'roles', '--project', 'relay', '--json')).out) as {
      roles: { role: string; pendingDirectives: number }[]
    }
    expect(Object.fromEntries(roles.roles.map((x) => [x.role, x.pendingDirectives]))).toEqual({ build: 2, strategy: 1, 产品: 1 })
  })

  it('pickup marks a 🟡 row or announcement received where it stands; with a 🟡 sender line it writes the receipt', async () => {
    const { home, dir } = await relay()
    const build = join(dir, '.muse', 'build.md')
    const r109 = await run(home, 'directive', 'pickup', '--id', 'S109', '--project', 'relay', '--target', 'RELAY/BUILD', '--json')
    expect(r109.code, r109.err).toBe(0)
    const after = readFileSync(build, 'utf8')
    expect(after).toMatch(/\n\*\*状态\*\*: ✅ 已接收 \d{4}-\d\d-\d\d \d\d:\d\d — 待执行\n/)
    const r120 = await run(home, 'directive', 'pickup', '--id', 'S120', '--project', 'relay', '--target', 'RELAY/产品')
    expect(r120.code, r120.err).toBe(0)
    expect(readFileSync(join(dir, '.muse', '产品.md'), 'utf8')).toMatch(/\| S120 产品定价页 \| ✅ 已接收 [\d-]+ [\d:]+ — 待执行 \|\n$/)
    // S177 has a 🟡 SPEC line in strategy.md: the usual receipt and flip
    const r177 = await run(home, 'directive', 'pickup', '--id', 'S177', '--project', 'relay', '--target', 'RELAY/BUILD')
    expect(r177.code, r177.err).toBe(0)
    expect(readFileSync(join(dir, '.muse', 'strategy.md'), 'utf8')).toContain('📡 **S177→RELAY/BUILD**: ✅ **中继队列背压** — 已传递')
    // an outgoing table row names its target; pickup flips it inside its cell
    const strategy = join(dir, '.muse', 'strategy.md')
    writeFileSync(
      strategy,
      readFileSync(strategy, 'utf8') +
        '\n## 📡 战略指令队列 (表)\n\n| 指令 | 状态 |\n|---|---|\n| S200→RELAY/BUILD 缓存预热 | 🟡 待传递 |\n'
    )
    const r200 = await run(home, 'directive', 'pickup', '--id', 'S200', '--project', 'relay', '--target', 'RELAY/BUILD')
    expect(r200.code, r200.err).toBe(0)
    expect(readFileSync(strategy, 'utf8')).toMatch(/\n\| S200→RELAY\/BUILD 缓存预热 \| ✅ 已传递 [\d-]+ [\d:]+ — 待传递 \|\n$/)
    expect(readFileSync(build, 'utf8')).toMatch(/\n### S200→RELAY\/BUILD \([\d-]+\) — ✅ 已接收 [\d-]+ [\d:]+\n> \*\*缓存预热\*\*\n/)
    const states = JSON.parse((await run(home, 'directives', '--json')).out) as { directives: Listed[] }
    const by = Object.fromEntries(states.directives.map((d) => [d.key, d.state]))
    expect([by['S109→RELAY/BUILD'], by['S120→RELAY/产品'], by['S177→RELAY/BUILD'], by['S200→RELAY/BUILD']]).toEqual([
      'received',
      'received',
      'delivered',
      'delivered'
    ])
  })
})

describe('states beyond 🟡 and ✅, quoted lines under a heading, the blockquote receipt form', () => {
  const STATES = join(REPO_ROOT, 'test', 'fixtures', 'forms', 'states')

  it('🚫 / 🔒 / 🟢 are their own states; a quoted 📡 line is no title; the quoted receipt form is a lint finding', async () => {
    const dir = join(tmpDir(), 'states')
    cpSync(STATES, dir, { recursive: true })
    const home = tmpDir()
    expect((await run(home, 'projects', 'add', dir)).code).toBe(0)
    const text = readFileSync(join(dir, '.muse', 'build.md'), 'utf8')
    const p = parseRole('build.md', text)
    expect(digestRole('build.md', Buffer.from(text))).toEqual(digestOf(p))
    const listed = JSON.parse((await run(home, 'directives', '--json')).out) as { directives: Listed[] }
    const by = Object.fromEntries(listed.directives.map((d) => [d.key, `${d.state} | ${d.title}`]))
    expect(by).toEqual({
      'S201→STATES/BUILD': 'skipped | 旧方案的压测',
      'S202→STATES/BUILD': 'frozen | 大版本重构',
      'S203→STATES/BUILD': 'active | 存储迁移',
      'S204→STATES/BUILD': 'received | 缓存预热',
      'S205→STATES/BUILD': 'received | 日志轮转',
      'S209→STATES/BUILD': 'skipped | 取消的需求'
    })
    const s201 = listed.directives.find((d) => d.key === 'S201→STATES/BUILD')!
    expect(s201.occurrences.map((o) => `${o.form} ${o.mark} ${o.statusText}`).sort()).toEqual(['head skipped 跳过 12/02', 'spec pending '])
    const frozen = JSON.parse((await run(home, 'directives', '--state', 'frozen', '--json')).out) as { directives: Listed[] }
    expect(frozen.directives.map((d) => d.key)).toEqual(['S202→STATES/BUILD'])

    const lint = await run(home, 'lint', '--json')
    const findings = (JSON.parse(lint.out) as { findings: { code: string; file: string; line: number; message: string }[] }).findings
    expect(findings.filter((f) => f.code === 'unmatched-directive').map((f) => `${f.file}:${f.line}`)).toEqual([
      'build.md:26',
      'build.md:27',
      'build.md:28'
    ])
  })
})
