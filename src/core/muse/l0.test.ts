import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describeUpstream, upstreamPath } from '../../../test/helpers/fixtures'
import { describe, expect, it } from 'vitest'
import { parseL0, splitFlags, L0_MAX_LENGTH } from './l0'

const FIXTURES = upstreamPath('muse-real', '.muse')
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8')

describeUpstream('parseL0 on the real MUSE role files', () => {
  it('build.md: version, a comma list in the priority slot, 179 chars', () => {
    const l0 = parseL0(fixture('build.md'))!
    expect(l0.version).toBe('v2.22.0')
    expect(l0.topPriority).toBe('S043✅')
    expect(l0.flags).toEqual([
      'Skill Marketplace✅',
      'Web Dashboard✅',
      'VS Code Extension✅',
      'Online Dashboard✅',
      'TF-IDF Search✅',
      'Benchmark✅',
      'Strategic Repositioning✅',
      'Memory Loss Prevention✅',
      '57skills'
    ])
    expect(l0.length).toBe(179)
    expect(l0.overLimit).toBe(true)
  })

  it('gm.md: parenthesised flag with + stays one flag', () => {
    const l0 = parseL0(fixture('gm.md'))!
    expect(l0.version).toBe('v2.14.0')
    expect(l0.topPriority).toBe('Stars=2')
    expect(l0.flags).toEqual([
      'Core Skills=5',
      'Toolkit=42',
      'Eco=7',
      'Workflows=8',
      'T2巩固✅(Batch1-2+SemanticCompression+SessionCheckpoint+AutoProfile)',
      'Batch3=Plugin'
    ])
    expect(l0.length).toBe(146)
    expect(l0.overLimit).toBe(true)
  })

  it('growth.md: 285-char body with 18 items', () => {
    const l0 = parseL0(fixture('growth.md'))!
    expect(l0.version).toBe('v2.22.0')
    expect(l0.topPriority).toBe('Governance System✅')
    expect(l0.flags).toHaveLength(17)
    expect(l0.flags).toContain('S042目录攻势✅')
    expect(l0.flags.at(-1)).toBe('BUILD_IN_PUBLIC_POSTS.md待更新')
    expect(l0.length).toBe(285)
  })

  it('qa.md: no pipes and no version; a version inside the text is not taken', () => {
    const l0 = parseL0(fixture('qa.md'))!
    expect(l0.version).toBeNull()
    expect(l0.topPriority).toBe('最近QA全PASS(10/10 v2.15.0 MCP Server)')
    expect(l0.flags).toEqual(['无待修FAIL', '无待验AC', 'QA清洁状态'])
    expect(l0.length).toBe(59)
    expect(l0.overLimit).toBe(false)
  })
})

describe('parseL0 edge cases', () => {
  it('reads the spec form with 3 parts', () => {
    const l0 = parseL0('<!-- L0: v2.11.0 | P0=竞品技术吸收Batch2 | QA PASS, 3 pending directives -->\n# x\n')!
    expect(l0).toMatchObject({ version: 'v2.11.0', topPriority: 'P0=竞品技术吸收Batch2', flags: ['QA PASS', '3 pending directives'] })
    expect(l0.overLimit).toBe(false)
  })

  it('tolerates a UTF-8 BOM', () => {
    const l0 = parseL0('\uFEFF<!-- L0: v1.0 | ship | ok -->\n')!
    expect(l0.version).toBe('v1.0')
    expect(l0.raw.startsWith('<!--')).toBe(true)
  })

  it('tolerates CRLF line endings', () => {
    const l0 = parseL0('<!-- L0: 1.2.3 | release | a, b -->\r\n# Build\r\n')!
    expect(l0).toMatchObject({ version: '1.2.3', topPriority: 'release', flags: ['a', 'b'] })
    expect(l0.raw.endsWith('\r')).toBe(false)
  })

  it('returns null without an L0 line, including an L0 on line 2 or an empty file', () => {
    expect(parseL0('# Build\n\nno status here\n')).toBeNull()
    expect(parseL0('\n<!-- L0: v1.0 | x | y -->\n')).toBeNull()
    expect(parseL0('')).toBeNull()
    expect(parseL0('<!-- L0: unterminated')).toBeNull()
  })

  it('0 pipes with a version: the version alone', () => {
    expect(parseL0('<!-- L0: v3.0.1 -->')).toMatchObject({ version: 'v3.0.1', topPriority: null, flags: [] })
  })

  it('1 pipe with a non-version first field shifts the parts', () => {
    expect(parseL0('<!-- L0: 发布准备 | 等待QA -->')).toMatchObject({ version: null, topPriority: '发布准备', flags: ['等待QA'] })
  })

  it('3+ pipes: the extra pipes stay inside the flags part', () => {
    const l0 = parseL0('<!-- L0: v1.2 | P0 | a, b | c -->')!
    expect(l0).toMatchObject({ version: 'v1.2', topPriority: 'P0', flags: ['a', 'b | c'] })
  })

  it('full-width commas split flags; empty items are dropped', () => {
    expect(splitFlags('甲，乙, ,丙,')).toEqual(['甲', '乙', '丙'])
  })

  it('an empty body gives an L0 with nothing in it', () => {
    expect(parseL0('<!-- L0: -->')).toMatchObject({ body: '', version: null, topPriority: null, flags: [] })
  })

  it('counts characters, not bytes, against the 120 limit', () => {
    const body = '中'.repeat(L0_MAX_LENGTH)
    expect(parseL0(`<!-- L0: ${body} -->`)!.overLimit).toBe(false)
    expect(parseL0(`<!-- L0: ${body}x -->`)!.overLimit).toBe(true)
  })

  it('reads the 10 KB first line of a 250 KB file (its time is measured by npm run bench)', () => {
    const text = `<!-- L0: v1 | ${'x, '.repeat(3000)} -->\n` + 'line\n'.repeat(50_000)
    const l0 = parseL0(text)!
    expect(l0.overLimit).toBe(true)
    expect(l0.body.length).toBeGreaterThan(9_000)
  })
})
