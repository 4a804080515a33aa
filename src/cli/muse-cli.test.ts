import { chmodSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { describeUpstream, upstreamPath } from '../../test/helpers/fixtures'
import { tmpDir, writeTree } from '../../test/helpers/tmp'
import { setDefaultSafeWriteHooks } from '../core/muse/safe-write'
import { runCliIn as run } from '../../test/helpers/cli'

const FIXTURES = upstreamPath('muse-real')

const json = async (home: string, ...args: string[]) => {
  const r = await run(home, ...args, '--json')
  return { ...r, data: JSON.parse(r.out) }
}

const STRATEGY = `<!-- L0: v1.0.0 | ship | ok -->
# Strategy

## 📡 战略指令队列

📡 **S042→MUSE/BUILD**: 🟡 **Ship it**
> line a
> line b

---

## 📋 Other
text
`

/** A fleet: `muse` = a copy of the real files, `dya` = the hub holding strategy.md. */
async function fleet(): Promise<{ home: string; muse: string; dya: string }> {
  const root = tmpDir()
  const muse = join(root, 'muse')
  cpSync(FIXTURES, muse, { recursive: true })
  chmodSync(muse, 0o755)
  chmodSync(join(muse, '.muse'), 0o755)
  for (const f of readdirSync(join(muse, '.muse'))) chmodSync(join(muse, '.muse', f), 0o644) // the fixtures are read-only
  const dya = join(root, 'dya')
  writeTree(dya, {
    '.muse/strategy.md': STRATEGY,
    '.muse/paths.md': `# paths\n\n\`\`\`\nSTRATEGY_PATH: ${dya}/.muse/strategy.md\n\`\`\`\n`
  })
  const home = tmpDir()
  expect((await run(home, 'projects', 'add', muse)).code).toBe(0)
  expect((await run(home, 'projects', 'add', dya)).code).toBe(0)
  return { home, muse, dya }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date(2026, 2, 17, 9, 5))
})
afterEach(() => {
  vi.useRealTimers()
  setDefaultSafeWriteHooks(undefined)
})

describeUpstream('muster directives (real MUSE files)', () => {
  it('lists the real files with resolution and state; the hub comes from paths.md', async () => {
    const { home } = await fleet()
    const { data } = await json(home, 'directives')
    expect(data.hub).toEqual({ project: 'dya', source: 'paths.md' })
    const byKey = Object.fromEntries(data.directives.map((d: { key: string; state: string }) => [d.key, d.state]))
    expect(byKey).toMatchObject({
      'S042→MUSE/BUILD': 'pending',
      'S041→MUSE/BUILD': 'delivered',
      'S047→MUSE/BUILD': 'received',
      'S033→MUSE/GROWTH': 'received',
      'S040v3→MUSE/GROWTH': 'received'
    })
    expect(data.count).toBe(16)
    const s041 = data.directives.find((d: { key: string }) => d.key === 'S041→MUSE/BUILD')
    expect(s041.source).toMatchObject({ project: 'muse', file: 'growth.md', line: 227 })
    expect(s041.receipt).toMatchObject({ project: 'muse', file: 'build.md', line: 319 })
    const pending = await json(home, 'directives', '--pending')
    expect(pending.data.directives.map((d: { key: string }) => d.key)).toEqual(['S042→MUSE/BUILD'])
    const human = await run(home, 'directives', '--target', 'muse/growth')
    expect(human.out).toMatch(/^ID\s+TARGET\s+STATE\s+WHERE\s+TITLE\n/)
    expect(human.out).toMatch(/S040v3\s+MUSE\/GROWTH\s+received\s+muse\/growth\.md:198/)
    expect((await run(home, 'directives', '--project', 'ghost')).err).toBe("muster: unknown project 'ghost' (see: muster projects list)\n")
  })
})

describeUpstream('muster directive pickup (real MUSE files)', () => {
  it('writes exactly the two edits, byte for byte, and is idempotent', async () => {
    const { home, muse, dya } = await fleet()
    const buildBefore = readFileSync(join(muse, '.muse/build.md'), 'utf8')
    const r = await run(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S042', '--target', 'MUSE/BUILD')
    expect(r).toMatchObject({ code: 0, err: '' })
    expect(r.out).toBe(
      'S042→MUSE/BUILD picked up\n  receipt: muse/.muse/build.md\n  source:  dya/.muse/strategy.md (✅ 已传递 2026-03-17 09:05)\n'
    )
    const lines = buildBefore.split('\n')
    lines.splice(332, 0, '', '### S042→MUSE/BUILD (2026-03-17) — ✅ 已接收 2026-03-17 09:05', '> **Ship it**', '> line a', '> line b')
    expect(readFileSync(join(muse, '.muse/build.md'), 'utf8')).toBe(lines.join('\n'))
    expect(readFileSync(join(dya, '.muse/strategy.md'), 'utf8')).toBe(
      STRATEGY.replace('🟡 **Ship it**', '✅ **Ship it** — 已传递 2026-03-17 09:05')
    )
    const again = await json(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S042', '--target', 'MUSE/BUILD')
    expect(again.data.outcome).toBe('already-done')
    expect(readFileSync(join(muse, '.muse/build.md'), 'utf8')).toBe(lines.join('\n'))
    const list = await json(home, 'directives', '--target', 'MUSE/BUILD')
    expect(list.data.directives.find((d: { id: string }) => d.id === 'S042').state).toBe('delivered')
  })

  it('completes a half-finished pickup without a second receipt', async () => {
    const { home, muse, dya } = await fleet()
    await run(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S042', '--target', 'MUSE/BUILD')
    const build = readFileSync(join(muse, '.muse/build.md'), 'utf8')
    writeFileSync(join(dya, '.muse/strategy.md'), STRATEGY) // back to 🟡 as if the crash hit between the edits
    const r = await json(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S042', '--target', 'MUSE/BUILD')
    expect(r.data.outcome).toBe('completed')
    expect(readFileSync(join(muse, '.muse/build.md'), 'utf8')).toBe(build)
    expect(readFileSync(join(dya, '.muse/strategy.md'), 'utf8')).toContain('✅ **Ship it** — 已传递 2026-03-17 09:05')
  })

  it('keeps an agent edit made between read and rename', async () => {
    const { home, muse } = await fleet()
    let fired = false
    setDefaultSafeWriteHooks({
      beforeRename: (path) => {
        if (fired || !path.endsWith('build.md')) return
        fired = true
        writeFileSync(path, readFileSync(path, 'utf8') + 'agent line\n')
      }
    })
    const r = await run(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S042', '--target', 'MUSE/BUILD')
    expect(r.code).toBe(0)
    const build = readFileSync(join(muse, '.muse/build.md'), 'utf8')
    expect(build.endsWith('JC-Myths`\nagent line\n')).toBe(true)
    expect(build).toContain('### S042→MUSE/BUILD (2026-03-17) — ✅ 已接收 2026-03-17 09:05\n> **Ship it**\n')
  })

  it('clear errors: unknown project, unknown target, missing id, nothing to pick up', async () => {
    const { home } = await fleet()
    expect((await run(home, 'directive', 'pickup', '--project', 'ghost', '--id', 'S042', '--target', 'MUSE/BUILD')).err).toBe(
      "muster: unknown project 'ghost' (see: muster projects list)\n"
    )
    expect((await run(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S042', '--target', 'NOPE/BUILD')).err).toBe(
      'muster: unknown target NOPE/BUILD: no registered project with key NOPE\n'
    )
    expect((await run(home, 'directive', 'pickup', '--project', 'dya', '--target', 'MUSE/BUILD')).err).toMatch(
      /required option '--id <id>' not specified/
    )
    const none = await json(home, 'directive', 'pickup', '--project', 'dya', '--id', 'S999', '--target', 'MUSE/BUILD')
    expect(none).toMatchObject({ code: 1, data: { error: 'no directive S999→MUSE/BUILD in project dya' } })
    expect((await run(home, 'directive', 'pickup', '--project', 'dya', '--id', 'X1', '--target', 'MUSE/BUILD')).err).toMatch(
      /directive id must look like S042/
    )
  })
})

describeUpstream('muster directive send (real MUSE files)', () => {
  /** `muster directive send --json` from dya's strategy role to TO, then EXTRA (title, body, id). */
  const sendFromDya = (home: string, to: string, ...extra: string[]) =>
    json(home, 'directive', 'send', '--project', 'dya', '--from', 'strategy', '--to', to, ...extra)
  it("writes the SPEC form into the sender's outgoing section with the next free id", async () => {
    const { home, dya } = await fleet()
    const r = await sendFromDya(home, 'muse/qa', '--title', 'Regress v2', '--body', 'b1\n\nb2')
    // 1 + the largest id in dya (the sender) and the hub (dya): S043; muse's S043 went to MUSE/BUILD, not MUSE/QA
    expect(r.data).toEqual({ id: 'S043', target: 'MUSE/QA', file: 'dya/.muse/strategy.md', line: 10, warnings: [] })
    expect(readFileSync(join(dya, '.muse/strategy.md'), 'utf8')).toBe(
      STRATEGY.replace('> line b\n', '> line b\n\n📡 **S043→MUSE/QA**: 🟡 **Regress v2**\n> b1\n>\n> b2\n')
    )
    const dup = await sendFromDya(home, 'MUSE/QA', '--title', 'x', '--id', 'S043')
    expect(dup.data.error).toBe('S043→MUSE/QA already exists: pick another id')
  })

  it('creates the outgoing section before a closing footer when missing (CRLF kept)', async () => {
    const { home, muse } = await fleet()
    const qa = readFileSync(join(muse, '.muse/qa.md'), 'utf8')
    writeFileSync(join(muse, '.muse/qa.md'), qa.replace(/\n/g, '\r\n'))
    const r = await json(home, 'directive', 'send', '--project', 'muse', '--from', 'qa', '--to', 'MUSE/BUILD', '--title', 'Fix AC3')
    expect(r.data).toMatchObject({ id: 'S048', target: 'MUSE/BUILD', line: 226 })
    const lines = qa.split('\n')
    lines.splice(222, 0, '', '## 📡 战略指令队列', '', '📡 **S048→MUSE/BUILD**: 🟡 **Fix AC3**')
    expect(readFileSync(join(muse, '.muse/qa.md'), 'utf8')).toBe(lines.join('\r\n'))
  })

  it('refuses unknown targets, path-like roles and invocation-rule violations', async () => {
    const { home } = await fleet()
    const send = (...a: string[]) => run(home, 'directive', 'send', '--project', 'dya', '--title', 't', ...a)
    expect((await send('--from', 'strategy', '--to', 'MUSE/NOPE')).err).toBe(
      'muster: unknown target MUSE/NOPE: project muse has no role file nope.md\n'
    )
    for (const bad of ['../../etc/passwd', 'a/b', '/etc/passwd']) {
      expect((await send('--from', bad, '--to', 'MUSE/QA')).err).toMatch(/^muster: invalid role name/)
    }
    expect((await send('--from', 'strategy', '--to', 'MUSE/QA', '--body', '[CHAIN: cfo]\n[INVOKE:cfo|again]')).err).toBe(
      'muster: invocation refused: line 3: INVOKE:cfo blocked (self): cfo cannot invoke itself\n'
    )
  })
})

describeUpstream('muster roles / role (real MUSE files)', () => {
  it('lists roles with counters and shows one parsed role', async () => {
    const { home } = await fleet()
    const roles = await json(home, 'roles', '--project', 'muse')
    expect(
      roles.data.roles.map((r: { role: string; openTodos: number; doneTodos: number; pendingDirectives: number }) => [
        r.role,
        r.doneTodos,
        r.pendingDirectives
      ])
    ).toEqual([
      ['build', 17, 0],
      ['gm', 0, 0],
      ['growth', 0, 2],
      ['qa', 0, 0]
    ])
    const role = await json(home, 'role', '--project', 'muse', 'BUILD')
    expect(role.data).toMatchObject({ role: 'build', lines: 364, todos: { open: 0, done: 17 } })
    expect(role.data.directives).toHaveLength(8)
    expect(role.data.notices).toHaveLength(6)
    expect((await run(home, 'role', '--project', 'muse', 'BUILD')).out).toMatch(/TODO: 17\/17 done \(0 open\)\n/)
    expect((await run(home, 'role', '--project', 'muse', '../../etc/passwd')).err).toMatch(
      /^muster: invalid role name '\.\.\/\.\.\/etc\/passwd'/
    )
    expect((await run(home, 'role', '--project', 'muse', 'nope')).err).toBe(
      "muster: no role 'nope' in muse (roles: build, gm, growth, qa)\n"
    )
    expect((await run(home, 'role', '--project', 'muse', 'paths')).err).toMatch(/config file, not a role/)
  })
})

describe('muster directive pickup (inline files)', () => {
  it('CRLF + BOM target without a received section and without a final newline; CRLF source', async () => {
    const root = tmpDir()
    const home = tmpDir()
    const target = '\uFEFF<!-- L0: v1.0 | a | b -->\r\n# QA\r\n\r\n## Results\r\nok'
    const source = '# S\r\n\r\n📡 **S007→QA**: 🟡 **Check**\r\n> do it\r\n'
    writeTree(root, { 'p/.muse/qa.md': target, 'p/.muse/strategy.md': source })
    await run(home, 'projects', 'add', join(root, 'p'))
    const r = await run(home, 'directive', 'pickup', '--project', 'p', '--id', 'S007', '--target', 'QA')
    expect(r.code).toBe(0)
    expect(readFileSync(join(root, 'p/.muse/qa.md'))).toEqual(
      Buffer.from(
        '\uFEFF<!-- L0: v1.0 | a | b -->\r\n# QA\r\n\r\n## Results\r\nok\r\n\r\n## 📡 已接收战略指令\r\n\r\n### S007→P/QA (2026-03-17) — ✅ 已接收 2026-03-17 09:05\r\n> **Check**\r\n> do it',
        'utf8'
      )
    )
    expect(readFileSync(join(root, 'p/.muse/strategy.md'), 'utf8')).toBe(
      '# S\r\n\r\n📡 **S007→QA**: ✅ **Check** — 已传递 2026-03-17 09:05\r\n> do it\r\n'
    )
  })
})
