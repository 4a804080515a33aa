import { describe, expect, it } from 'vitest'
import { blockedLine, checkInvocation } from './rules'
import { checkText, scanText } from './scan'
import { parseChain, parseInvocationTags } from './tags'

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
    expect(t.responses[0]).toEqual({
      role: 'cfo',
      line: 4,
      keyFinding: '14 months runway',
      supportingData: ['burn 80k/month', '1.1M in bank'],
      confidence: 'high',
      caveat: 'excludes the Q3 hire',
      closed: true
    })
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

describe('every example of the seed (agent-protocol)', () => {
  // Each case is the seed's own line: the chain as written there, the next target, the verdict.
  const cases: [string, string[], string, 1 | 2 | 3 | undefined, string | null][] = [
    ['Rule 1: CFO → [INVOKE:cfo|...] : BLOCKED', ['CFO'], 'cfo', undefined, 'self'],
    ['Rule 2: ✅ CRO → CFO → COO (depth 2)', ['CRO', 'CFO'], 'COO', undefined, null],
    ['Rule 2: ❌ CRO → CFO → COO → CHRO (depth 3 : BLOCKED)', ['CRO', 'CFO', 'COO'], 'CHRO', undefined, 'depth'],
    ['Rule 3: ✅ CRO → CFO → CMO', ['CRO', 'CFO'], 'CMO', undefined, null],
    ['Rule 3: ❌ CRO → CFO → CRO (circular : BLOCKED)', ['CRO', 'CFO'], 'CRO', undefined, 'circular'],
    ['Phase 2: NO invocations allowed', ['ceo'], 'cfo', 2, 'isolation'],
    ['Phase 2: even a first call', [], 'cfo', 2, 'isolation'],
    ['Phase 3: Executive Mentor cannot invoke', [], 'cfo', 3, 'isolation'],
    ['Outside board meetings: freely, subject to the loop rules', [], 'cfo', 1, null]
  ]
  for (const [name, chain, target, phase, rule] of cases) {
    it(name, () => {
      const v = checkInvocation(target, { chain, phase })
      expect(v.allowed ? null : v.rule).toBe(rule)
    })
  }

  it('phase 3 blocks the critic (named as the caller) but not another role; the caller joins the chain', () => {
    expect(checkInvocation('cfo', { chain: ['cro'], phase: 3, caller: 'executive-mentor' })).toMatchObject({
      allowed: false,
      rule: 'isolation'
    })
    expect(checkInvocation('cfo', { chain: ['cro'], phase: 3, caller: 'Executive Mentor' })).toMatchObject({
      allowed: false,
      rule: 'isolation'
    })
    expect(checkInvocation('coo', { chain: ['cro'], phase: 3, caller: 'cfo' })).toEqual({ allowed: true })
    expect(checkInvocation('cro', { chain: ['cro'], caller: 'cfo' })).toMatchObject({
      allowed: false,
      rule: 'circular',
      reason: 'circular call: cro is already in cro → cfo'
    })
  })

  it('the seed’s blocked answer, with em dash, and its assumption line', () => {
    expect(blockedLine('CFO', 'circular call detected in chain cro→cfo')).toBe(
      '[BLOCKED: cannot invoke cfo — circular call detected in chain cro→cfo]'
    )
    const t = parseInvocationTags(
      '[BLOCKED: cannot invoke cfo : circular call detected in chain cro→cfo]\nState assumption used instead: burn stays at $280K'
    )
    expect(t.blocked).toEqual([
      { role: 'cfo', reason: 'circular call detected in chain cro→cfo', assumption: 'burn stays at $280K', line: 1 }
    ])
  })
})

describe('the inconsistent real forms', () => {
  it('chains: upper case, no spaces, ASCII arrows', () => {
    expect(parseChain('CRO → CFO → COO')).toEqual(['cro', 'cfo', 'coo'])
    expect(parseChain('cro→cfo')).toEqual(['cro', 'cfo'])
    expect(parseChain('cro->cfo => coo ⇒ chro')).toEqual(['cro', 'cfo', 'coo', 'chro'])
    expect(parseInvocationTags('[CHAIN: CRO→CFO]').chains).toEqual([{ roles: ['cro', 'cfo'], line: 1 }])
  })

  it('[INVOKE:...|...] inside markdown tables, the pipe escaped or not', () => {
    const table = [
      '| role | ask |',
      '|---|---|',
      '| CFO | [INVOKE:CFO\\|Burn impact of 5 hires?] |',
      '| CRO | [INVOKE:cro|Pipeline for 90 days?] |'
    ].join('\n')
    expect(parseInvocationTags(table).invokes).toEqual([
      { role: 'cfo', question: 'Burn impact of 5 hires?', line: 3 },
      { role: 'cro', question: 'Pipeline for 90 days?', line: 4 }
    ])
    expect(scanText(table)).toEqual([])
  })

  it('the chain an invocation carries ends with its target: cro → cfo with INVOKE:cfo is cro calling cfo', () => {
    expect(scanText('[CHAIN: cro → cfo]\n[INVOKE:cfo|burn?]')).toEqual([])
    const third = scanText('[CHAIN: cro → cfo → coo → chro]\n[INVOKE:chro|hiring?]')
    expect(third).toMatchObject([
      { rule: 'depth', chain: ['cro', 'cfo', 'coo'], written: ['cro', 'cfo', 'coo', 'chro'], target: 'chro', line: 2 }
    ])
    expect(scanText('[CHAIN: cfo]\n[INVOKE:cfo|me?]')).toMatchObject([
      { rule: 'self', blocked: '[BLOCKED: cannot invoke cfo — cfo cannot invoke itself]' }
    ])
  })

  it('sibling calls recorded as a chain are reported and checked as siblings', () => {
    const text = [
      '[INVOKE:cfo|Runway?] [CHAIN: ceo → cfo]',
      '[INVOKE:cmo|CAC?] [CHAIN: ceo → cfo → cmo]',
      '[INVOKE:cro|Pipeline?] [CHAIN: ceo → cfo → cmo → cro]'
    ].join('\n')
    const f = scanText(text)
    expect(f.map((x) => [x.rule, x.line, x.chain])).toEqual([
      ['sibling-chain', 2, ['ceo']],
      ['sibling-chain', 3, ['ceo']]
    ])
    expect(f[1]!.message).toBe(
      '[CHAIN: ceo → cfo → cmo → cro] names cfo, cmo as callers of cro, but this text invoked cfo, cmo itself (line 1): sibling calls each carry their own chain, here [CHAIN: ceo → cro]'
    )
    // the protocol's own worked example: CRO asks CFO, quotes the answer, then asks CMO
    const worked = [
      'CRO → [INVOKE:cfo|What is our Q3 revenue target given current runway and burn?]',
      '',
      'CFO responds:',
      '[RESPONSE:cfo]',
      'Key finding: Q3 ARR target ≥ $2.4M',
      'Supporting data:',
      '  - Current ARR: $2.0M',
      '  - 20% QoQ growth maintains runway',
      'Confidence: high',
      'Caveat: no new hires',
      '[/RESPONSE]',
      '',
      'CRO → [INVOKE:cmo|Given a $2.4M Q3 ARR target, what pipeline coverage and CAC should we plan for?]',
      '[CHAIN: cro → cfo → cmo]'
    ].join('\n')
    expect(scanText(worked).map((x) => [x.rule, x.line, x.chain, x.written])).toEqual([
      ['sibling-chain', 13, ['cro'], ['cro', 'cfo', 'cmo']]
    ])
    // a header between: cfo's own section may invoke further (a real depth-2 chain)
    expect(scanText('## CEO\n[INVOKE:cfo|x] [CHAIN: ceo → cfo]\n## CFO\n[INVOKE:coo|y] [CHAIN: ceo → cfo → coo]')).toEqual([])
  })

  it('board-meeting phases come from the headers; broadcasts are the CEO’s; BLOCKED needs its assumption', () => {
    const doc = [
      '# Board meeting: Q3 hiring',
      '## Phase 2: independent analysis',
      '[INVOKE:cfo|burn?]',
      '[ASSUMPTION: burn stays flat]',
      '## Phase 3: critique',
      '[INVOKE:cro|pipeline?]',
      '# Build notes',
      '## Phase 2 of the migration',
      '[INVOKE:cto|ship date?]',
      '[CHAIN: cmo]',
      '[BROADCAST:all|pivot?]',
      '[BLOCKED: cannot invoke coo — depth]'
    ].join('\n')
    expect(scanText(doc).map((f) => [f.line, f.rule, f.phase])).toEqual([
      [3, 'isolation', 2],
      [6, 'isolation', 3],
      [11, 'broadcast', null],
      [12, 'no-assumption', null]
    ])
  })

  it('responses keep the format: key finding, 2-3 data points, confidence, closed', () => {
    const ok =
      '[RESPONSE:cfo]\nKey finding: 9 months runway\nSupporting data:\n  - burn $380K\n  - ARR $1.2M\nConfidence: medium\nCaveat: ramp\n[/RESPONSE]'
    expect(scanText(ok)).toEqual([])
    expect(scanText('[RESPONSE:cfo]\nKey finding: x\n  - one\nConfidence: sure')).toMatchObject([
      {
        rule: 'response-format',
        message: '[RESPONSE:cfo]: no [/RESPONSE], no "Confidence: high|medium|low", 1 supporting data points (2-3 expected)'
      }
    ])
  })
})

describe('code is not an invocation', () => {
  it('tags in inline code and fenced blocks are skipped, lines stay right', () => {
    const text = 'Syntax: `[INVOKE:role|question]`\n```\n[INVOKE:wizard|x]\n```\n[INVOKE:cfo|real]'
    expect(parseInvocationTags(text).invokes).toEqual([{ role: 'cfo', question: 'real', line: 5 }])
    expect(scanText(text)).toEqual([])
  })
})
