/**
 * `muster usage` and `muster budget` in process, on a user home holding the real harnesses'
 * captured records (test/fixtures/usage): totals exactly the stand-ins' numbers, grouped every
 * way, windows, the unpriced model named; budgets set, listed, crossed, released and removed,
 * bad input refused with exit 2 and nothing changed.
 */
import { cpSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Budget, UsageSummary } from '../shared/api'
import { runCliWith } from '../../test/helpers/cli'
import { tmpDir } from '../../test/helpers/tmp'

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/usage')
const CLAUDE_SESSION = 'e0a07bda-173f-4359-b3b7-bec87203a92a'

let home: string
let user: string
const run = (...args: string[]) => runCliWith(home, { env: { HOME: user }, cwd: user }, ...args)

beforeAll(() => {
  const dir = tmpDir()
  home = join(dir, 'muster')
  user = join(dir, 'user')
  cpSync(join(FIXTURES, 'claude-projects'), join(user, '.claude', 'projects'), { recursive: true })
  cpSync(join(FIXTURES, 'codex'), join(user, '.codex'), { recursive: true })
  cpSync(join(FIXTURES, 'gemini-tmp'), join(user, '.gemini', 'tmp'), { recursive: true })
})

describe('muster usage', () => {
  it('sums each harness’s sessions exactly, and says what it could not price', async () => {
    const r = await run('usage', '--by', 'harness', '--json')
    expect(r.code, r.err).toBe(0)
    const s = JSON.parse(r.out) as UsageSummary
    expect(Object.fromEntries(s.rows.map((x) => [x.key, x.tokens]))).toEqual({
      'claude-code': { input: 24, output: 12, cache_write: 80, cache_read: 200 },
      codex: { input: 12, output: 10, cache_write: 0, cache_read: 8 },
      gemini: { input: 12, output: 14, cache_write: 0, cache_read: 8 }
    })
    expect(s.total.unpriced_models).toEqual(['gpt-5.1-codex'])
    const human = await run('usage')
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^SESSION\s+HARNESS\s+AGENT\s+SESSIONS\s+INPUT/)
    expect(human.out).toContain(CLAUDE_SESSION)
    expect(human.out).toContain('total: 380 tokens in 3 sessions')
    expect(human.out).toContain('prices of 2026-12-07')
    expect(human.out).toContain('not priced (no price known; counted in tokens only): gpt-5.1-codex: 30 tokens')
    expect(human.out).toMatch(/cursor: no usage data/)
  })

  it('by model and day; a window before the records holds none', async () => {
    const byModel = JSON.parse((await run('usage', '--by', 'model', '--json')).out) as UsageSummary
    expect(byModel.rows.map((x) => x.key).sort()).toEqual(['claude-opus-5-5', 'gemini-2.5-flash', 'gpt-5.1-codex'])
    const day = JSON.parse(
      (await run('usage', '--by', 'day', '--since', '2026-12-01', '--until', '2026-12-31', '--json')).out
    ) as UsageSummary
    expect(day.rows.reduce((n, x) => n + x.total, 0)).toBe(380)
    const before = JSON.parse((await run('usage', '--until', '2026-11-30', '--json')).out) as UsageSummary
    expect(before.rows).toEqual([])
    expect((await run('usage', '--harness', 'codex', '--json')).out).toContain('"total": 30')
  })

  it('refuses words it does not know, with exit 2', async () => {
    expect(await run('usage', '--by', 'colour')).toMatchObject({ code: 2, err: expect.stringContaining("--by 'colour'") })
    expect(await run('usage', '--since', 'last week')).toMatchObject({ code: 2, err: expect.stringContaining("--since 'last week'") })
  })
})

describe('muster budget', () => {
  it('set, list, crossed, released, removed; bad input refused and nothing changed', async () => {
    const set = await run('budget', 'set', '--session', CLAUDE_SESSION, '--tokens', '300', '--json')
    expect(set.code, set.err).toBe(0)
    const b = JSON.parse(set.out) as Budget
    expect(b).toMatchObject({ scope: 'session', target: CLAUDE_SESSION, tokens: 300, trusted: true, crossed: true })
    const list = await run('budget', 'list')
    expect(list.out).toMatch(new RegExp(`#${b.id}\\s+session e0a07bda-173…: 300 tokens\\s+316\\s+CROSSED\\s+e0a07bda`))
    const released = await run('budget', 'release', String(b.id), '--session', CLAUDE_SESSION)
    expect(released.code, released.err).toBe(0)
    expect(released.out).toContain(`session ${CLAUDE_SESSION} may go on past budget #${b.id}`)
    expect(JSON.parse((await run('budget', 'list', '--json')).out).budgets[0].held[0].released).toBe(true)

    for (const bad of [
      ['budget', 'set', '--tokens', '5'],
      ['budget', 'set', '--day', '--agent', 'a', '--tokens', '5'],
      ['budget', 'set', '--day'],
      ['budget', 'set', '--day', '--tokens', '-3'],
      ['budget', 'set', '--day', '--usd', 'lots'],
      ['budget', 'remove', 'x']
    ])
      expect((await run(...bad)).code, bad.join(' ')).toBe(2)
    expect(JSON.parse((await run('budget', 'list', '--json')).out).budgets).toHaveLength(1)

    expect((await run('budget', 'remove', String(b.id))).out).toContain(`removed budget #${b.id}`)
    expect(await run('budget', 'remove', String(b.id))).toMatchObject({ code: 1, err: expect.stringContaining(`no budget #${b.id}`) })
    expect((await run('budget', 'list')).out).toContain('no budgets')
  })
})
