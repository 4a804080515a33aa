import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir, writeTree } from '../../../test/helpers/tmp'
import { createService } from '../root'
import { parsePathsConfig, strategyPathsIn } from './hub-project'

/** Two projects: `hq` holds strategy.md (named by `sat`'s CLAUDE.md), `sat` is a satellite. */
async function setup(claude = true) {
  const root = tmpDir()
  writeTree(root, {
    'hq/.muse/strategy.md':
      '<!-- L0: v1.0 | s | f -->\n## 📡 战略指令队列\n\n📡 **S005→QA**: 🟡 **bare goes to the hub**\n📡 **S006→SAT/BUILD**: 🟡 **to the satellite**\n📡 **S006→SAT/BUILD**: 🟡 **again**\n📡 **S007→ALL**: 🟡 **everyone**\n📡 **S008→GHOST/BUILD**: 🟡 **nobody**\n',
    'hq/.muse/qa.md': '<!-- L0: v1.0 | q | f -->\n## 🎯 TODO\n- [ ] one\n- [x] two\n',
    'sat/.muse/build.md': '<!-- L0: v1.0 | b | f -->\n## ⏳ 待办\n- [ ] a\n- [ ] b\n### 📡 S006→SAT/BUILD (3/1) — 🟡 待处理\n',
    ...(claude ? { 'sat/CLAUDE.md': `- 战略文件: \`${root}/hq/.muse/strategy.md\`\n` } : {})
  })
  const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
  await service.call('projects.add', { path: join(root, 'hq') })
  await service.call('projects.add', { path: join(root, 'sat') })
  return service
}

describe('routing and directive states', () => {
  it('finds the hub from CLAUDE.md and resolves bare, PROJECT/ROLE, ALL and unknown targets', async () => {
    const s = await setup()
    const r = await s.call('muse.directives', {})
    expect(r.hub).toEqual({ project: 'hq', source: 'CLAUDE.md' })
    const by = Object.fromEntries(r.directives.map((d) => [d.key, d]))
    expect(by['S005→HQ/QA']!.resolution).toEqual({ kind: 'role', project: 'hq', key: 'HQ', role: 'qa', file: 'qa.md' })
    expect(by['S007→ALL']!.resolution).toEqual({ kind: 'all' })
    expect(by['S008→GHOST/BUILD@HQ']!.resolution).toEqual({ kind: 'unresolved', reason: 'no registered project with key GHOST' })
    // the MCP-style inbox copy at the target (🟡, not in a received section) does not count as received
    expect(by['S006→SAT/BUILD']!).toMatchObject({ state: 'pending', receipt: null })
    expect(by['S006→SAT/BUILD']!.occurrences).toHaveLength(3)
    const lint = await s.call('muse.lint', {})
    expect(lint.findings.filter((f) => f.code === 'duplicate-pending').map((f) => `${f.project}/${f.file}:${f.line}`)).toEqual([
      'hq/strategy.md:5',
      'hq/strategy.md:6',
      'sat/build.md:5'
    ])
    expect(lint.findings.find((f) => f.code === 'unresolved-target')).toMatchObject({ file: 'strategy.md', line: 8 })
    await s.close()
  })

  it('without any hints bare targets are unresolved until the operator marks a hub', async () => {
    const s = await setup(false)
    expect(await s.call('muse.hub', {})).toEqual({ project: 'hq', source: 'strategy.md' })
    expect(await s.call('muse.setHub', { project: 'sat' })).toEqual({ project: 'sat', source: 'operator' })
    const r = await s.call('muse.directives', { target: 'QA' })
    expect(r.directives.map((d) => [d.key, d.resolution.kind])).toEqual([['S005→QA@HQ', 'unresolved']])
    const un = await s.call('muse.directives', {})
    expect(un.directives.find((d) => d.id === 'S005')!.resolution).toEqual({
      kind: 'unresolved',
      reason: 'project sat has no role file qa.md'
    })
    expect(await s.call('muse.setHub', { project: null })).toEqual({ project: 'hq', source: 'strategy.md' })
    await expect(s.call('muse.setHub', { project: 'ghost' })).rejects.toMatchObject({ code: 'not_found' })
    await s.close()
  })

  it('the overview carries pending directives and TODO counts', async () => {
    const s = await setup()
    const [hq, sat] = await s.call('fleet.status', {})
    expect(hq).toMatchObject({ pendingDirectives: 5, openTodos: 1 })
    expect(hq!.roles.find((r) => r.role === 'qa')).toMatchObject({ pendingDirectives: 0, openTodos: 1, doneTodos: 1 })
    expect(sat).toMatchObject({ pendingDirectives: 1, openTodos: 2 })
    await s.close()
  })
})

describe('config parsing', () => {
  it('paths.md KEY: value lines inside fences; CLAUDE.md strategy paths', () => {
    expect(parsePathsConfig('# p\nSTRATEGY_PATH: /outside\n```\nSTRATEGY_PATH: /a/.muse/strategy.md\nDYA_ROOT: /b\nbroken\n```\n')).toEqual(
      {
        entries: { STRATEGY_PATH: '/a/.muse/strategy.md', DYA_ROOT: '/b' },
        malformed: [6]
      }
    )
    expect(strategyPathsIn('> strategy.md 绝对路径: `/Users/jj/Desktop/DYA/.muse/strategy.md`')).toEqual([
      '/Users/jj/Desktop/DYA/.muse/strategy.md'
    ])
  })
})
