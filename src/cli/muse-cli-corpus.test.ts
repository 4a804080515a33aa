/**
 * The MUSE commands (directives, pickup, send, roles, lint) on a copy of the project's own corpus
 * (test/fixtures/fleet: `helm` the hub, `orbit`, `lumen`). Runs always; muse-cli.test.ts has the
 * same checks on the real upstream files (when ../shared exists).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { copyCorpus } from '../../test/helpers/fixtures'
import { tmpDir } from '../../test/helpers/tmp'
import { setDefaultSafeWriteHooks } from '../core/muse/safe-write'
import { runCliIn as run } from '../../test/helpers/cli'

const json = async (home: string, ...args: string[]) => {
  const r = await run(home, ...args, '--json')
  return { ...r, data: JSON.parse(r.out) }
}
const read = (path: string) => readFileSync(path, 'utf8')

/** The corpus copied to a temporary folder, every project registered. */
async function fleet(): Promise<{ home: string; helm: string; orbit: string; lumen: string }> {
  const { helm, orbit, lumen } = copyCorpus(tmpDir())
  const home = tmpDir()
  for (const p of [orbit!, lumen!, helm!]) expect((await run(home, 'projects', 'add', p)).code).toBe(0)
  return { home, helm: helm!, orbit: orbit!, lumen: lumen! }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date(2026, 3, 2, 9, 5))
})
afterEach(() => {
  vi.useRealTimers()
  setDefaultSafeWriteHooks(undefined)
})

describe('muster directives (own corpus)', () => {
  it('lists every directive with its resolution and state; the hub comes from paths.md; archive/ is not read', async () => {
    const { home } = await fleet()
    const { data } = await json(home, 'directives')
    expect(data.hub).toEqual({ project: 'helm', source: 'paths.md' })
    // list order (shared/directive-query.ts): pending first, then received, delivered, untracked; newest S-number first
    expect(data.directives.map((d: { key: string; state: string }) => `${d.key} ${d.state}`)).toEqual([
      'S115→HELM/OPS pending', // MCP form after ops.md's closing footer: at the target, no receipt
      'S113→ALL pending',
      'S112→ORBIT/BUILD pending',
      'S112→ORBIT/QA pending', // the same id for another target is another directive
      'S096→LUMEN/BUILD pending', // buried in lumen's session log
      'S108→ORBIT/GROWTH received', // half-finished: receipt written, source still 🟡
      'S107→ORBIT/BUILD received',
      'S099→LUMEN/BUILD received', // LOOSE source, receipt at the end of a 250 KB file
      'S092→LUMEN/BUILD received',
      'S083→LUMEN/BUILD received',
      'S071→LUMEN/BUILD received',
      'S114v2→ORBIT/GROWTH delivered',
      'S111+→HELM/OPS delivered', // bare OPS belongs to the hub project
      'S110→ORBIT/BUILD delivered',
      'S105→ORBIT/GROWTH delivered',
      'S104→ORBIT/BUILD delivered',
      'S101→ORBIT/BUILD delivered',
      'S098→KITE/GM@HELM untracked' // LOOSE without status, project not registered
    ])
    expect(data.count).toBe(18)
    const byKey = (key: string) => data.directives.find((d: { key: string }) => d.key === key)
    expect(byKey('S101→ORBIT/BUILD').source).toMatchObject({ project: 'helm', file: 'strategy.md', line: 27, mark: 'done' })
    expect(byKey('S101→ORBIT/BUILD').receipt).toMatchObject({ project: 'orbit', file: 'build.md', line: 139 })
    expect(byKey('S101→ORBIT/BUILD').occurrences.map((o: { file: string; line: number }) => `${o.file}:${o.line}`)).toEqual([
      'strategy.md:27',
      'build.md:139',
      'growth.md:97'
    ])
    expect(byKey('S108→ORBIT/GROWTH')).toMatchObject({
      source: { file: 'strategy.md', line: 37, mark: 'pending' },
      receipt: { file: 'growth.md', line: 77 }
    })
    expect(byKey('S115→HELM/OPS')).toMatchObject({
      source: null,
      receipt: null,
      title: '备份演练改到周六 4/4 10:00',
      occurrences: [{ project: 'helm', file: 'ops.md', line: 41, form: 'head' }]
    })
    expect(byKey('S113→ALL').resolution).toEqual({ kind: 'all' })
    expect(byKey('S098→KITE/GM@HELM').resolution).toEqual({ kind: 'unresolved', reason: 'no registered project with key KITE' })
    expect(byKey('S111+→HELM/OPS').resolution).toEqual({ kind: 'role', project: 'helm', key: 'HELM', role: 'ops', file: 'ops.md' })

    const pending = await json(home, 'directives', '--pending')
    expect(pending.data.directives.map((d: { key: string }) => d.key)).toEqual([
      'S115→HELM/OPS',
      'S113→ALL',
      'S112→ORBIT/BUILD',
      'S112→ORBIT/QA',
      'S096→LUMEN/BUILD'
    ])
    const human = await run(home, 'directives', '--target', 'orbit/growth')
    expect(human.out).toBe(
      [
        'ID      TARGET        STATE      WHERE                TITLE',
        'S108    ORBIT/GROWTH  received   helm/strategy.md:37  竞品对比页 — Orbit vs Turborepo vs Nx vs just',
        'S114v2  ORBIT/GROWTH  delivered  helm/strategy.md:56  Launch week 素材 v2',
        'S105    ORBIT/GROWTH  delivered  helm/strategy.md:34  Launch week 排期',
        ''
      ].join('\n')
    )
    expect((await run(home, 'directives', '--state', 'untracked')).out).toMatch(
      /^ID.*\nS098\s+KITE\/GM \(\?\)\s+untracked\s+helm\/strategy\.md:59\s+Kite 暂停, 资源转 Orbit\n$/
    )
    expect((await run(home, 'directives', '--project', 'ghost')).err).toBe("muster: unknown project 'ghost' (see: muster projects list)\n")
  })
})

describe('muster directives answers with the shared directive query (own corpus)', () => {
  it('--pending --target: one target, pending only; a bare target resolves to the hub project', async () => {
    const { home } = await fleet()
    expect((await run(home, 'directives', '--pending', '--target', 'orbit/build')).out).toBe(
      'ID    TARGET       STATE    WHERE                TITLE\nS112  ORBIT/BUILD  pending  helm/strategy.md:46  Retry budget 默认值下调到 2\n'
    )
    const ops = await json(home, 'directives', '--target', 'ops')
    expect(ops.data.directives.map((d: { key: string; state: string }) => `${d.key} ${d.state}`)).toEqual([
      'S115→HELM/OPS pending',
      'S111+→HELM/OPS delivered'
    ])
    expect(
      (await json(home, 'directives', '--pending', '--target', 'LUMEN/BUILD')).data.directives.map((d: { key: string }) => d.key)
    ).toEqual(['S096→LUMEN/BUILD'])
    expect(await run(home, 'directives', '--state', 'bogus')).toMatchObject({
      code: 1,
      err: "muster: --state must be one of pending, received, delivered, skipped, frozen, active, untracked (got 'bogus')\n"
    })
  })

  it('--text: every word, anywhere in the directive and its occurrences, ignoring case', async () => {
    const { home } = await fleet()
    const keysFor = async (...a: string[]) => (await json(home, 'directives', ...a)).data.directives.map((d: { key: string }) => d.key)
    // two words that are not adjacent anywhere
    expect(await keysFor('--text', 'retry 回归')).toEqual(['S112→ORBIT/QA'])
    // a receipt's file name and a word of the receipt's body (not the sender's line)
    expect(await keysFor('--text', 'BUILD.MD v1.6.0')).toEqual(['S104→ORBIT/BUILD', 'S101→ORBIT/BUILD'])
    // the date of the MCP-written heading, and its id
    expect(await keysFor('--text', '2026-04-01 s115')).toEqual(['S115→HELM/OPS'])
    expect(await keysFor('--text', 'retry', '--state', 'delivered')).toEqual(['S110→ORBIT/BUILD'])
  })

  it('--role and --project filter directives and notices alike', async () => {
    const { home } = await fleet()
    const qa = await json(home, 'directives', '--role', 'qa')
    expect(qa.data.directives.map((d: { key: string }) => d.key)).toEqual(['S112→ORBIT/QA'])
    // notices from QA live in build.md: a role matches the holder, the sender or the recipient
    expect(
      qa.data.notices.map((n: { from: string; to: string; date: string; file: string }) => `${n.from}→${n.to} ${n.date} ${n.file}`)
    ).toEqual(['QA→BUILD 2026-03-31 22:05 build.md', 'QA→BUILD 2026-03-29 19:40 build.md'])
    const pending = await json(home, 'directives', '--project', 'ORBIT', '--pending')
    expect(pending.data.directives.map((d: { key: string }) => d.key)).toEqual(['S112→ORBIT/BUILD', 'S112→ORBIT/QA'])
    expect(pending.data.notices.map((n: { title: string }) => n.title)).toEqual(['BUILD→QA v1.8.0 Retry Budget — 5/6 AC PASS, AC4 FAIL'])
  })
})

describe('muster directive pickup (own corpus)', () => {
  const S112 = ['--project', 'helm', '--id', 'S112', '--target', 'ORBIT/BUILD']

  it('writes exactly the two edits, byte for byte, leaves the same id for ORBIT/QA alone, and is idempotent', async () => {
    const { home, helm, orbit } = await fleet()
    const buildBefore = read(join(orbit, '.muse/build.md'))
    const strategyBefore = read(join(helm, '.muse/strategy.md'))
    const r = await run(home, 'directive', 'pickup', ...S112)
    expect(r).toMatchObject({ code: 0, err: '' })
    expect(r.out).toBe(
      'S112→ORBIT/BUILD picked up\n  receipt: orbit/.muse/build.md\n  source:  helm/.muse/strategy.md (✅ 已传递 2026-04-02 09:05)\n'
    )
    const lines = buildBefore.split('\n')
    // after S110's last line (159), before the blank line and `## 📋 CHANGELOG 维护规则`
    lines.splice(
      159,
      0,
      '',
      '### S112→ORBIT/BUILD (2026-04-02) — ✅ 已接收 2026-04-02 09:05',
      '> **Retry budget 默认值下调到 2**',
      '> 线上数据: 92% 的成功重试发生在第 1-2 次。',
      '> 默认值改为 2, 全局上限不变。'
    )
    expect(read(join(orbit, '.muse/build.md'))).toBe(lines.join('\n'))
    expect(read(join(helm, '.muse/strategy.md'))).toBe(
      strategyBefore.replace(
        '📡 **S112→ORBIT/BUILD**: 🟡 **Retry budget 默认值下调到 2**',
        '📡 **S112→ORBIT/BUILD**: ✅ **Retry budget 默认值下调到 2** — 已传递 2026-04-02 09:05'
      )
    )
    const again = await json(home, 'directive', 'pickup', ...S112)
    expect(again.data.outcome).toBe('already-done')
    expect(read(join(orbit, '.muse/build.md'))).toBe(lines.join('\n'))
    const list = await json(home, 'directives', '--target', 'ORBIT/BUILD')
    expect(list.data.directives.find((d: { id: string }) => d.id === 'S112').state).toBe('delivered')
    expect((await json(home, 'directives', '--pending')).data.directives.map((d: { key: string }) => d.key)).toContain('S112→ORBIT/QA')
  })

  it('completes the half-finished pickups of the corpus (HEAD receipt in growth.md, LOOSE source for the 250 KB file) without a second receipt', async () => {
    const { home, helm, orbit, lumen } = await fleet()
    const growth = read(join(orbit, '.muse/growth.md'))
    const big = read(join(lumen, '.muse/build.md'))
    const strategy = read(join(helm, '.muse/strategy.md'))
    const s108 = await json(home, 'directive', 'pickup', '--project', 'helm', '--id', 'S108', '--target', 'orbit/growth')
    expect(s108.data).toMatchObject({ outcome: 'completed', receiptFile: 'orbit/.muse/growth.md', sourceFile: 'helm/.muse/strategy.md' })
    const s099 = await json(home, 'directive', 'pickup', '--project', 'helm', '--id', 'S099', '--target', 'LUMEN/BUILD')
    expect(s099.data.outcome).toBe('completed')
    expect(read(join(orbit, '.muse/growth.md'))).toBe(growth)
    expect(read(join(lumen, '.muse/build.md'))).toBe(big)
    expect(read(join(helm, '.muse/strategy.md'))).toBe(
      strategy
        .replace(
          '🟡 **竞品对比页 — Orbit vs Turborepo vs Nx vs just**',
          '✅ **竞品对比页 — Orbit vs Turborepo vs Nx vs just** — 已传递 2026-04-02 09:05'
        )
        .replace(
          '📡 S099→LUMEN/BUILD: 🟡 build.md 超过 250 KB, 先归档再开新版本',
          '📡 S099→LUMEN/BUILD: ✅ build.md 超过 250 KB, 先归档再开新版本 — 已传递 2026-04-02 09:05'
        )
    )
  })

  it('picks up the MCP form in a BOM + CRLF file: receipt in its received section, the line flipped, bytes kept', async () => {
    const { home, helm } = await fleet()
    const path = join(helm, '.muse/ops.md')
    const before = readFileSync(path)
    const r = await json(home, 'directive', 'pickup', '--project', 'helm', '--id', 'S115', '--target', 'OPS')
    expect(r.data).toMatchObject({
      id: 'S115',
      target: 'HELM/OPS',
      outcome: 'picked-up',
      receiptFile: 'helm/.muse/ops.md',
      sourceFile: 'helm/.muse/ops.md'
    })
    const lines = before.toString('utf8').split('\r\n')
    lines.splice(
      28,
      0,
      '',
      '### S115→HELM/OPS (2026-04-01 21:10) — ✅ 已接收 2026-04-02 09:05',
      '> 备份演练改到周六 4/4 10:00',
      '> 演练结束后在本文件「待办」里勾掉, 并把恢复耗时写进 memory。'
    )
    lines[44] = lines[44]!.replace('— 🟡 待处理', '— ✅ 待处理 — 已传递 2026-04-02 09:05')
    expect(readFileSync(path)).toEqual(Buffer.from(lines.join('\r\n'), 'utf8'))
    expect(readFileSync(path).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
  })

  it('keeps an agent edit made between read and rename', async () => {
    const { home, orbit } = await fleet()
    let fired = false
    setDefaultSafeWriteHooks({
      beforeRename: (path) => {
        if (fired || !path.endsWith('build.md')) return
        fired = true
        writeFileSync(path, read(path) + 'agent line\n')
      }
    })
    const r = await run(home, 'directive', 'pickup', ...S112)
    expect(r.code).toBe(0)
    const build = read(join(orbit, '.muse/build.md'))
    expect(build.endsWith('https://example.com/orbit/orbit.git\nagent line\n')).toBe(true)
    expect(build).toContain('### S112→ORBIT/BUILD (2026-04-02) — ✅ 已接收 2026-04-02 09:05\n> **Retry budget 默认值下调到 2**\n')
  })

  it('clear errors: unknown project, unknown target, ALL, missing id, nothing to pick up, bad id', async () => {
    const { home } = await fleet()
    const pickup = (...a: string[]) => run(home, 'directive', 'pickup', ...a)
    expect((await pickup('--project', 'ghost', '--id', 'S112', '--target', 'ORBIT/BUILD')).err).toBe(
      "muster: unknown project 'ghost' (see: muster projects list)\n"
    )
    expect((await pickup('--project', 'helm', '--id', 'S098', '--target', 'KITE/GM')).err).toBe(
      'muster: unknown target KITE/GM: no registered project with key KITE\n'
    )
    expect((await pickup('--project', 'helm', '--id', 'S113', '--target', 'ALL')).err).toBe(
      'muster: S113→ALL is addressed to every project: pick it up per role by sending a receipt, not with pickup\n'
    )
    expect((await pickup('--project', 'helm', '--target', 'ORBIT/BUILD')).err).toMatch(/required option '--id <id>' not specified/)
    const none = await json(home, 'directive', 'pickup', '--project', 'helm', '--id', 'S999', '--target', 'ORBIT/BUILD')
    expect(none).toMatchObject({ code: 1, data: { error: 'no directive S999→ORBIT/BUILD in project helm' } })
    expect((await pickup('--project', 'helm', '--id', 'X1', '--target', 'ORBIT/BUILD')).err).toMatch(/directive id must look like S042/)
  })
})

describe('muster directive send (own corpus)', () => {
  it("writes the SPEC form into the sender's outgoing section with the next free id; ids are keyed by (id, target)", async () => {
    const { home, helm } = await fleet()
    const path = join(helm, '.muse/strategy.md')
    const before = read(path)
    const r = await json(
      home,
      'directive',
      'send',
      '--project',
      'helm',
      '--from',
      'strategy',
      '--to',
      'orbit/qa',
      '--title',
      'Regress AC4',
      '--body',
      'b1\n\nb2'
    )
    // 1 + the largest id in helm (sender and hub): S115 of ops.md, suffixes ignored
    expect(r.data).toEqual({ id: 'S116', target: 'ORBIT/QA', file: 'helm/.muse/strategy.md', line: 62, warnings: [] })
    const sent = before.replace('先归档再开新版本\n', '先归档再开新版本\n\n📡 **S116→ORBIT/QA**: 🟡 **Regress AC4**\n> b1\n>\n> b2\n')
    expect(read(path)).toBe(sent)
    const send = (...a: string[]) => json(home, 'directive', 'send', '--project', 'helm', '--from', 'strategy', '--title', 'x', ...a)
    expect((await send('--to', 'ORBIT/QA', '--id', 'S116')).data.error).toBe('S116→ORBIT/QA already exists: pick another id')
    expect((await send('--to', 'ORBIT/QA', '--id', 'S112')).data.error).toBe('S112→ORBIT/QA already exists: pick another id')
    expect(read(path)).toBe(sent)
    expect((await send('--to', 'ORBIT/GM', '--id', 'S112')).data).toMatchObject({ id: 'S112', target: 'ORBIT/GM', line: 67 })
  })

  it('creates the outgoing section before a closing footer when missing (CRLF kept)', async () => {
    const { home, orbit } = await fleet()
    const qa = read(join(orbit, '.muse/qa.md'))
    writeFileSync(join(orbit, '.muse/qa.md'), qa.replace(/\n/g, '\r\n'))
    const r = await json(home, 'directive', 'send', '--project', 'orbit', '--from', 'qa', '--to', 'ORBIT/BUILD', '--title', 'Fix AC4')
    expect(r.data).toMatchObject({ id: 'S116', target: 'ORBIT/BUILD', line: 103 })
    const lines = qa.split('\n')
    // after `</details>` (99), before the blank line, the `---` rule and the `*Orbit QA v1.2 ...*` footer
    lines.splice(99, 0, '', '## 📡 战略指令队列', '', '📡 **S116→ORBIT/BUILD**: 🟡 **Fix AC4**')
    expect(read(join(orbit, '.muse/qa.md'))).toBe(lines.join('\r\n'))
  })

  it('refuses unknown targets, path-like roles and invocation-rule violations', async () => {
    const { home } = await fleet()
    const send = (...a: string[]) => run(home, 'directive', 'send', '--project', 'helm', '--title', 't', ...a)
    expect((await send('--from', 'strategy', '--to', 'ORBIT/NOPE')).err).toBe(
      'muster: unknown target ORBIT/NOPE: project orbit has no role file nope.md\n'
    )
    expect((await send('--from', 'strategy', '--to', 'KITE/GM')).err).toBe(
      'muster: unknown target KITE/GM: no registered project with key KITE\n'
    )
    for (const bad of ['../../etc/passwd', 'a/b', '/etc/passwd']) {
      expect((await send('--from', bad, '--to', 'ORBIT/QA')).err).toMatch(/^muster: invalid role name/)
    }
    expect((await send('--from', 'paths', '--to', 'ORBIT/QA')).err).toMatch(/config file, not a role/)
    expect((await send('--from', 'strategy', '--to', 'ORBIT/QA', '--body', '[CHAIN: cfo]\n[INVOKE:cfo|again]')).err).toBe(
      'muster: invocation refused: line 3: INVOKE:cfo blocked (self): cfo cannot invoke itself\n'
    )
  })
})

describe('muster roles / role / lint (own corpus)', () => {
  it('lists roles with counters and shows one parsed role', async () => {
    const { home } = await fleet()
    const roles = await json(home, 'roles', '--project', 'orbit')
    expect(
      roles.data.roles.map((r: { role: string; openTodos: number; doneTodos: number; pendingDirectives: number }) => [
        r.role,
        r.openTodos,
        r.doneTodos,
        r.pendingDirectives
      ])
    ).toEqual([
      ['build', 5, 3, 1], // the 🟡 QA→BUILD notice
      ['gm', 0, 0, 0],
      ['growth', 0, 0, 1], // the 🟡 S108 heading in its received section
      ['qa', 0, 0, 0],
      ['research', 2, 1, 0]
    ])
    const role = await json(home, 'role', '--project', 'orbit', 'BUILD')
    expect(role.data).toMatchObject({ role: 'build', lines: 175, todos: { open: 5, done: 3 } })
    expect(role.data.directives).toHaveLength(4)
    expect(role.data.notices).toHaveLength(4)
    expect((await run(home, 'role', '--project', 'orbit', 'BUILD')).out).toMatch(/TODO: 3\/8 done \(5 open\)\n/)
    expect((await run(home, 'role', '--project', 'orbit', '../../etc/passwd')).err).toMatch(
      /^muster: invalid role name '\.\.\/\.\.\/etc\/passwd'/
    )
    expect((await run(home, 'role', '--project', 'orbit', 'nope')).err).toBe(
      "muster: no role 'nope' in orbit (roles: build, gm, growth, qa, research)\n"
    )
    expect((await run(home, 'role', '--project', 'helm', 'paths')).err).toMatch(/config file, not a role/)
    expect((await json(home, 'roles', '--project', 'helm')).data.roles.map((r: { role: string }) => r.role)).toEqual(['ops', 'strategy'])
  })

  it('lint reports what the corpus is built to contain', async () => {
    const { home } = await fleet()
    const r = await json(home, 'lint')
    expect(
      r.data.findings
        .map(
          (f: { level: string; code: string; project: string; file: string; line: number | null }) =>
            `${f.level} ${f.code} ${f.project}/${f.file}:${f.line}`
        )
        .sort()
    ).toEqual([
      'error no-l0 orbit/research.md:1',
      'warning after-footer helm/ops.md:41',
      'warning file-long lumen/build.md:null',
      'warning l0-long orbit/build.md:1',
      'warning l0-long orbit/gm.md:1',
      'warning l0-long orbit/growth.md:1',
      'warning unresolved-target helm/strategy.md:59'
    ])
    expect(r.data).toMatchObject({ errors: 1, warnings: 6 })
  })
})
