/**
 * parseL0 on every role file of the own corpus (test/fixtures/fleet): the L0 shapes of the real
 * files (1 pipe and over 120 chars, no pipe and no version, no L0) plus 2 and 3+ pipes, BOM + CRLF
 * and full-width commas. Runs always; l0.test.ts has the same checks on the real upstream files.
 */
import { describe, expect, it } from 'vitest'
import { corpusRole } from '../../../test/helpers/fixtures'
import { parseL0 } from './l0'

const l0 = (project: string, file: string) => parseL0(corpusRole(project, file))

describe('parseL0 on the own corpus', () => {
  it('orbit/build.md: version, a comma list in the priority slot, 129 chars (🟡 counts as one)', () => {
    const x = l0('orbit', 'build.md')!
    expect(x.version).toBe('v1.8.0')
    expect(x.topPriority).toBe('S110✅')
    expect(x.flags).toEqual([
      'Plugin API✅',
      'Remote Cache✅',
      'Watch Mode✅',
      'Sandbox Runner✅',
      'Cron Triggers✅',
      'Task Graph UI✅',
      'Retry Budget🟡',
      '31 tasks'
    ])
    expect(x.length).toBe(129)
    expect(x.overLimit).toBe(true)
  })

  it('orbit/gm.md: a parenthesised flag with + stays one flag; 121 chars is one over the limit', () => {
    const x = l0('orbit', 'gm.md')!
    expect(x).toMatchObject({ version: 'v1.7.1', topPriority: 'Stars=41' })
    expect(x.flags).toEqual([
      'Plugins=9',
      'Tasks=31',
      'Contributors=4',
      '缓存稳定✅(RemoteCache+Auth+GC+Doctor)',
      'v1.8=RetryBudget',
      'Windows=beta'
    ])
    expect(x.length).toBe(121)
    expect(x.overLimit).toBe(true)
  })

  it('orbit/growth.md: 224-char body with 16 items', () => {
    const x = l0('orbit', 'growth.md')!
    expect(x.version).toBe('v1.8.0')
    expect(x.topPriority).toBe('Docs Site✅')
    expect(x.flags).toHaveLength(15)
    expect(x.flags).toContain('S114v2✅')
    expect(x.flags).toContain('awesome-list PR 3/5 merged')
    expect(x.flags.at(-1)).toBe('竞品对比页待更新')
    expect(x.length).toBe(224)
  })

  it('orbit/qa.md: no pipes and no version; the version inside the text is not taken', () => {
    const x = l0('orbit', 'qa.md')!
    expect(x.version).toBeNull()
    expect(x.topPriority).toBe('最近QA: v1.8.0-rc.1 5/6 PASS')
    expect(x.flags).toEqual(['AC4 FAIL 待BUILD修', '无待验AC'])
    expect(x.length).toBe(51)
    expect(x.overLimit).toBe(false)
  })

  it('orbit/research.md: a file made by /role has no L0', () => {
    expect(l0('orbit', 'research.md')).toBeNull()
  })

  it('helm/strategy.md: the spec form, 2 pipes, within the limit', () => {
    expect(l0('helm', 'strategy.md')).toMatchObject({
      version: 'v0.9.0',
      topPriority: 'S112 派发中',
      flags: ['ORBIT v1.8 QA FAIL', 'LUMEN 冻结', 'KITE 暂停', '3 pending'],
      length: 68,
      overLimit: false
    })
  })

  it('helm/ops.md: BOM and CRLF tolerated; with 3 pipes the extra one stays inside the flags', () => {
    const x = l0('helm', 'ops.md')!
    expect(x).toMatchObject({ version: 'v0.9.0', topPriority: '备份演练', flags: ['disk 71%', 'certs ok | S115 待处理'], length: 45 })
    expect(x.raw.startsWith('<!--')).toBe(true)
    expect(x.raw.endsWith('-->')).toBe(true)
  })

  it('lumen/build.md: full-width commas split the flags', () => {
    expect(l0('lumen', 'build.md')).toMatchObject({
      version: 'v3.2.1',
      topPriority: '归档迁移',
      flags: ['冻结中', '只修P0', 'S099已接收'],
      length: 32,
      overLimit: false
    })
  })
})
