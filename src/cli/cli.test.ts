import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyCorpus, describeUpstream, upstreamPath } from '../../test/helpers/fixtures'
import { makeProject, tmpDir } from '../../test/helpers/tmp'
import { runCliIn as run } from '../../test/helpers/cli'
import { displayWidth, truncate } from './output'

/** Runs the CLI in-process against a home and captures its output. */

describe('muster CLI', () => {
  it('projects add/list/remove with --json and human output', async () => {
    const home = tmpDir()
    const root = makeProject(tmpDir(), 'atlas', { ops: '<!-- L0: v0.3.0 | deploy | green -->\n' })
    const added = await run(home, 'projects', 'add', root, '--name', 'atlas', '--json')
    expect(added.code).toBe(0)
    expect(JSON.parse(added.out)).toMatchObject({ name: 'atlas', key: 'ATLAS' })
    const list = await run(home, '--json', 'projects', 'list')
    expect(JSON.parse(list.out)).toMatchObject({ count: 1, projects: [{ name: 'atlas' }] })
    expect((await run(home, 'projects', 'list')).out).toMatch(/^NAME\s+KEY\s+PATH\natlas\s+ATLAS\s+\//)
    expect((await run(home, 'projects', 'remove', 'atlas')).out).toBe('removed atlas\n')
    expect((await run(home, 'projects', 'list')).out).toMatch(/no projects registered/)
  })

  it('status prints the parsed L0 of the own corpus (no L0, no version, archive/ and paths.md not roles)', async () => {
    const home = tmpDir()
    const { orbit, helm } = copyCorpus(tmpDir(), ['orbit', 'helm'])
    await run(home, 'projects', 'add', orbit!)
    await run(home, 'projects', 'add', helm!)
    const human = await run(home, 'status', '--project', 'orbit')
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^orbit \(ORBIT\)/)
    expect(human.out).toMatch(/\n {2}build\s+v1\.8\.0\s+S110✅\s+Plugin API✅/)
    expect(human.out).toMatch(/\n {2}qa\s+—\s+最近QA: v1\.8\.0-rc\.1 5\/6 PASS\s+AC4 FAIL 待BUILD修, 无待验AC/)
    expect(human.out).toMatch(/\n {2}research\s+—\s+no L0\s+18 lines\n/)
    expect(human.out).toMatch(/✗ research: no L0 status line/)
    const json = JSON.parse((await run(home, 'status', '--json')).out)
    expect(json.count).toBe(2)
    const roles = Object.fromEntries(
      json.projects.map((p: { name: string; roles: { role: string }[] }) => [p.name, p.roles.map((r) => r.role)])
    )
    expect(roles).toEqual({ helm: ['ops', 'strategy'], orbit: ['build', 'gm', 'growth', 'qa', 'research'] })
    const orbitRoles = json.projects.find((p: { name: string }) => p.name === 'orbit').roles
    expect(orbitRoles[3].l0.flags).toEqual(['AC4 FAIL 待BUILD修', '无待验AC'])
    expect(orbitRoles[4].l0).toBeNull()
  })

  it('projects set-key renames the PROJECT of targets, and projects hub marks the hub project', async () => {
    const home = tmpDir()
    const parent = tmpDir()
    makeProject(parent, 'alpha', { strategy: '<!-- L0: v1 | a | b -->\n# Strategy\n' })
    makeProject(parent, 'beta', { build: '<!-- L0: v1 | a | b -->\n# Build\n' })
    await run(home, 'projects', 'scan', parent)
    expect(JSON.parse((await run(home, 'projects', 'set-key', 'beta', 'be-ta', '--json')).out)).toMatchObject({
      name: 'beta',
      key: 'BE-TA'
    })
    expect((await run(home, 'projects', 'set-key', 'alpha', 'BE-TA')).err).toMatch(/already used by 'beta'/)
    expect(JSON.parse((await run(home, 'projects', 'hub', 'beta', '--json')).out)).toEqual({ project: 'beta', source: 'operator' })
    expect((await run(home, 'projects', 'hub')).out).toBe('hub project: beta (operator)\n')
    expect(JSON.parse((await run(home, 'projects', 'hub', '--clear', '--json')).out).source).not.toBe('operator')
  })

  it('errors are one line on stderr with exit 1, or {"error"} with --json', async () => {
    const home = tmpDir()
    const r = await run(home, 'projects', 'remove', 'ghost')
    expect(r).toMatchObject({ code: 1, out: '' })
    expect(r.err).toBe("muster: unknown project 'ghost' (see: muster projects list)\n")
    const j = await run(home, 'projects', 'add', '/definitely/not/here', '--json')
    expect(j.code).toBe(1)
    expect(JSON.parse(j.out)).toEqual({ error: 'no such folder: /definitely/not/here' })
    const unknown = await run(home, 'frobnicate')
    expect(unknown.code).toBe(1)
    expect(unknown.err).toMatch(/^muster: unknown command 'frobnicate'\n$/)
    const missingArg = await run(home, 'projects', 'add')
    expect(missingArg.code).toBe(1)
    expect(missingArg.err).toMatch(/missing required argument 'path'/)
  })

  it('a home that cannot be created is a clear error, and nothing else is written', async () => {
    const parent = tmpDir()
    writeFileSync(join(parent, 'file'), 'x')
    const r = await run(join(parent, 'file', 'home'), 'projects', 'list')
    expect(r.code).toBe(1)
    expect(r.err).toBe(`muster: cannot create folder ${join(parent, 'file', 'home')}: ${join(parent, 'file')} exists and is not a folder\n`)
    chmodSync(parent, 0o755)
  })

  it('every command has --help', async () => {
    const home = tmpDir()
    for (const cmd of [[], ['projects'], ['projects', 'add'], ['projects', 'scan'], ['status'], ['demo'], ['serve']]) {
      const r = await run(home, ...cmd, '--help')
      expect(r.code).toBe(0)
      expect(r.out).toMatch(/Usage: muster/)
    }
  })

  it('measures terminal width of CJK and emoji text', () => {
    expect(displayWidth('ab')).toBe(2)
    expect(displayWidth('中文')).toBe(4)
    expect(displayWidth('✅')).toBe(2)
    expect(displayWidth('📡🟡 x')).toBe(6)
    expect(displayWidth('✅\ufe0f a\u0301')).toBe(4)
    expect(displayWidth('\ud83d')).toBe(1)
    expect(truncate('最近QA全PASS', 6)).toBe('最近Q…')
  })
})

describeUpstream('muster status on the real MUSE files', () => {
  it('status prints the parsed L0 of the real MUSE files', async () => {
    const home = tmpDir()
    await run(home, 'projects', 'add', upstreamPath('muse-real'), '--name', 'muse')
    const human = await run(home, 'status')
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^muse \(MUSE\)/)
    expect(human.out).toMatch(/build\s+v2\.22\.0\s+S043✅/)
    expect(human.out).toMatch(/qa\s+—\s+最近QA全PASS/)
    const json = JSON.parse((await run(home, 'status', '--project', 'muse', '--json')).out)
    expect(json.count).toBe(1)
    expect(json.projects[0].roles.map((r: { role: string }) => r.role)).toEqual(['build', 'gm', 'growth', 'qa'])
    expect(json.projects[0].roles[3].l0.flags).toEqual(['无待修FAIL', '无待验AC', 'QA清洁状态'])
  })
})
