import { describe, expect, it } from 'vitest'
import { checkInvocation, checkText } from './rules'
import { parseInvocationTags } from './tags'

describe('invocation tags', () => {
  it('parses tolerant INVOKE/CHAIN forms, responses, blocked and conflicts', () => {
    const text = [
      '| ask | [INVOKE:CFO|What is the runway?] |',
      '[CHAIN: cro→cfo]',
      '[BROADCAST:all|Should we pivot?]',
      '[RESPONSE:cfo]',
      'Key finding: 14 months runway',
      'Supporting data:',
      '  - burn 80k/month',
      '  - 1.1M in bank',
      'Confidence: high',
      'Caveat: excludes the Q3 hire',
      '[/RESPONSE]',
      '[BLOCKED: cannot invoke coo — max depth reached]',
      'State assumption used instead: ops can absorb the load',
      '[ASSUMPTION: churn stays flat]',
      '[CONFLICT: cmo vs cfo on spend]'
    ].join('\n')
    const t = parseInvocationTags(text)
    expect(t.invokes).toEqual([{ role: 'cfo', question: 'What is the runway?', line: 1 }])
    expect(t.chains).toEqual([{ roles: ['cro', 'cfo'], line: 2 }])
    expect(t.broadcasts).toEqual([{ question: 'Should we pivot?', line: 3 }])
    expect(t.responses[0]).toEqual({ role: 'cfo', line: 4, keyFinding: '14 months runway', supportingData: ['burn 80k/month', '1.1M in bank'], confidence: 'high', caveat: 'excludes the Q3 hire', closed: true })
    expect(t.blocked).toEqual([{ role: 'coo', reason: 'max depth reached', assumption: 'ops can absorb the load', line: 12 }])
    expect(t.assumptions).toEqual(['churn stays flat'])
    expect(t.conflicts).toEqual(['cmo vs cfo on spend'])
  })
})

describe('the four hard rules', () => {
  it('self, depth, circular, isolation', () => {
    expect(checkInvocation('cfo', { chain: ['cro', 'cfo'] })).toMatchObject({ allowed: false, rule: 'self' })
    expect(checkInvocation('coo', { chain: ['cro', 'cfo'] })).toEqual({ allowed: true })
    expect(checkInvocation('cto', { chain: ['cro', 'cfo', 'coo'] })).toMatchObject({ allowed: false, rule: 'depth' })
    expect(checkInvocation('cro', { chain: ['cro', 'cfo'] })).toMatchObject({ allowed: false, rule: 'circular' })
    expect(checkInvocation('cfo', { chain: ['ceo'], phase: 2 })).toMatchObject({ allowed: false, rule: 'isolation' })
    expect(checkInvocation('cfo', { chain: ['ceo'], phase: 3 })).toMatchObject({ allowed: false, rule: 'isolation' })
    expect(checkInvocation('CFO', { chain: [] })).toEqual({ allowed: true })
  })

  it('checks a text: violations with the line and the reason, unknown roles as warnings', () => {
    const r = checkText('[CHAIN: cro → cfo]\n[INVOKE:cro|again?]\n[INVOKE:wizard|hm]')
    expect(r.violations).toEqual(['line 2: INVOKE:cro blocked (circular): circular call: cro is already in cro → cfo'])
    expect(r.warnings).toEqual(["line 3: unknown role 'wizard' in INVOKE"])
  })
})
