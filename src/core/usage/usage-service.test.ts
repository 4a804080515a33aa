import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { OperatorKeys } from '../approvals'
import { openStateDb, SettingsStore, STATE_DB_FILE } from '../fleet'
import type { Db } from '../sqlite'
import { budgetPayload, BudgetStore } from './budgets'
import { readGate } from './gate-file'
import { readUsageFile } from './line-reader'
import { Prices } from './prices'
import { usageReaderFor } from './readers'

const claudeCodeUsage = usageReaderFor('claude-code')!
import { UsageService } from './usage-service'
import { UsageStore } from './usage-store'

const FIXTURES = resolve(import.meta.dirname, '../../../test/fixtures/usage')
const CLAUDE_SESSION = 'e0a07bda-173f-4359-b3b7-bec87203a92a'
const CODEX_SESSION = '01a24e79-eaaa-7f51-8a8d-ef2fe3c5ddae'
const GEMINI_SESSION = '1660d774-1561-473b-8f45-24271cc1b06b'

const dirs: string[] = []
const dbs: Db[] = []
afterEach(() => {
  for (const db of dbs.splice(0)) db.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A user home with the three harnesses' captured records where they keep them, and a Muster home. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'muster-usage-svc-'))
  dirs.push(dir)
  const user = join(dir, 'user')
  cpSync(join(FIXTURES, 'claude-projects'), join(user, '.claude', 'projects'), { recursive: true })
  cpSync(join(FIXTURES, 'codex'), join(user, '.codex'), { recursive: true })
  cpSync(join(FIXTURES, 'gemini-tmp'), join(user, '.gemini', 'tmp'), { recursive: true })
  const home = join(dir, 'muster')
  const db = openStateDb(home)
  dbs.push(db)
  const keys = new OperatorKeys(home)
  const settings = new SettingsStore(db)
  const service = new UsageService({
    db,
    keys: { trust: () => keys.decisionTrust(), signer: () => keys.signer() },
    settings,
    projectFor: () => null,
    env: { HOME: user }
  })
  return { dir, user, home, db, keys, settings, service }
}

const claudeFile = (user: string) => join(user, '.claude', 'projects', '-tmp-cap-proj', `${CLAUDE_SESSION}.jsonl`)

describe('reading this machine’s harness records', () => {
  it('finds every harness’s records and sums each session exactly, once', async () => {
    const { service } = setup()
    expect(await service.refresh({ discover: true })).toBe(true)
    const s = await service.summary({ by: 'session' })
    const bySession = Object.fromEntries(s.rows.map((r) => [r.key, { harness: r.session!.harness, tokens: r.tokens }]))
    expect(bySession).toEqual({
      [CLAUDE_SESSION]: { harness: 'claude-code', tokens: { input: 24, output: 12, cache_write: 80, cache_read: 200 } },
      [CODEX_SESSION]: { harness: 'codex', tokens: { input: 12, output: 10, cache_write: 0, cache_read: 8 } },
      [GEMINI_SESSION]: { harness: 'gemini', tokens: { input: 12, output: 14, cache_write: 0, cache_read: 8 } }
    })
    // nothing changed: nothing read again, nothing counted twice
    expect(await service.refresh({ discover: true })).toBe(false)
    expect((await service.summary({ by: 'harness' })).total.total).toBe(316 + 30 + 34)
  })

  it('reads only what a harness appended since', async () => {
    const { user, service } = setup()
    await service.refresh({ discover: true })
    appendFileSync(
      claudeFile(user),
      JSON.stringify({
        type: 'assistant',
        sessionId: CLAUDE_SESSION,
        timestamp: '2026-12-07T04:00:00.000Z',
        message: { id: 'msg_3', model: 'claude-opus-5-5', usage: { input_tokens: 7, output_tokens: 3 } }
      }) + '\n'
    )
    expect(await service.refresh()).toBe(true)
    const row = (await service.summary({ by: 'session', session: CLAUDE_SESSION })).rows[0]!
    expect(row.tokens).toEqual({ input: 31, output: 15, cache_write: 80, cache_read: 200 })
    const src = service.store.sources().find((x) => x.session_id === CLAUDE_SESSION)!
    expect(src.read_to).toBe(readFileSync(claudeFile(user)).length)
  })

  it('estimates with the dated table; an unknown model is counted, flagged, never priced as 0', async () => {
    const { service } = setup()
    await service.refresh({ discover: true })
    const s = await service.summary({ by: 'model' })
    const claude = s.rows.find((r) => r.key === 'claude-opus-5-5')!
    // Claude Code's own estimate for this session was $0.000776
    expect(claude.usd).toBeCloseTo(0.000776, 9)
    const codex = s.rows.find((r) => r.key === 'gpt-5.1-codex')!
    expect(codex.usd).toBeNull()
    expect(codex.unpriced_models).toEqual(['gpt-5.1-codex'])
    expect(codex.unpriced_tokens).toBe(30)
    expect(s.total.unpriced_tokens).toBe(30)
    expect(s.prices.date).toBe('2026-12-07')
    // the operator prices it in Settings: now it has an estimate
    service.setPrice('gpt-5.1-codex', { input: 1, output: 10, cache_write: 1, cache_read: 0.1 })
    const again = (await service.summary({ by: 'model' })).rows.find((r) => r.key === 'gpt-5.1-codex')!
    expect(again.usd).toBeCloseTo((12 * 1 + 10 * 10 + 8 * 0.1) / 1e6, 12)
    expect((await service.summary({})).prices.overridden).toEqual(['gpt-5.1-codex'])
  })

  it('says which harnesses it reads and which keep no usage it can read', async () => {
    const { service } = setup()
    await service.refresh({ discover: true })
    const h = Object.fromEntries((await service.summary({})).harnesses.map((x) => [x.harness, x.status]))
    expect(h).toMatchObject({ 'claude-code': 'read', codex: 'read', gemini: 'read', cursor: 'no-usage' })
  })
})

describe('paths outside the harnesses’ own folders are never read', () => {
  it('a hook naming a file elsewhere, or a link leading out of the folder', async () => {
    const { dir, user, service } = setup()
    const outside = join(dir, 'elsewhere', `${CLAUDE_SESSION}.jsonl`)
    mkdirSync(join(dir, 'elsewhere'))
    writeFileSync(outside, readFileSync(claudeFile(user)))
    const env = { HOME: user }
    expect(await service.scanner.record({ harness: 'claude-code', path: outside }, env)).toBeNull()
    expect(
      await service.scanner.record({ harness: 'claude-code', path: join(user, '.claude', 'projects', '..', '..', 'x.jsonl') }, env)
    ).toBeNull()
    const link = join(user, '.claude', 'projects', '-tmp-cap-proj', 'aaaa-link.jsonl')
    symlinkSync(outside, link)
    expect(await service.scanner.record({ harness: 'claude-code', path: link }, env)).toBeNull()
    await service.refresh({ discover: true })
    expect(service.store.sources().map((s) => s.path)).not.toContain(outside)
    expect(service.store.sources().some((s) => s.path === link)).toBe(false)
  })

  it('a hook naming its own transcript registers it with the agent and project it knows', async () => {
    const { user, service } = setup()
    const row = await service.scanner.record(
      { harness: 'claude-code', path: claudeFile(user), session_id: CLAUDE_SESSION, agent: 'mac-claude', project: 'muse' },
      { HOME: user }
    )
    expect(row).toMatchObject({
      agent: 'mac-claude',
      project: 'muse',
      session_id: CLAUDE_SESSION,
      read_to: readFileSync(claudeFile(user)).length
    })
    const s = await service.summary({ by: 'agent' })
    expect(s.rows.map((r) => [r.key, r.total])).toEqual([['mac-claude', 316]])
  })
})

describe('a read is committed exactly once', () => {
  it('of two readers of one file, the second to commit is refused and changes nothing', async () => {
    const { user, db } = setup()
    const store = new UsageStore(db)
    const row = store.register(claudeFile(user), { harness: 'claude-code', root: join(user, '.claude', 'projects') })
    const a = await readUsageFile(row.path, claudeCodeUsage, null)
    const b = await readUsageFile(row.path, claudeCodeUsage, null)
    expect(store.commit(row, a)).toBe(true)
    expect(store.commit(row, b)).toBe(false)
    const sum = store.hours(null).reduce((n, h) => n + h.input + h.output + h.cache_write + h.cache_read, 0)
    expect(sum).toBe(316)
  })
})

describe('budgets', () => {
  it('a session budget crossed holds that session’s calls; the gate file names it; a release lets it go on', async () => {
    const { home, user, service } = setup()
    await service.scanner.record({ harness: 'claude-code', path: claudeFile(user), agent: 'mac-claude' }, { HOME: user })
    const b = service.setBudget({ scope: 'session', target: CLAUDE_SESSION, tokens: 300 })
    expect(b).toMatchObject({ trusted: true, crossed: true, label: `session ${CLAUDE_SESSION.slice(0, 12)}…: 300 tokens` })
    expect(b.used.total).toBe(316)
    expect(b.held).toEqual([
      { session_id: CLAUDE_SESSION, harness: 'claude-code', agent: 'mac-claude', total: 316, usd: b.held[0]!.usd, released: false }
    ])
    expect(readGate(join(home, STATE_DB_FILE))).toEqual([{ id: b.id, scope: 'session', target: CLAUDE_SESSION, since: expect.any(String) }])
    const hold = service.gate.holdFor({ session_id: CLAUDE_SESSION, agent: 'mac-claude', project: null })
    expect(hold).toMatchObject({ id: b.id, used_tokens: 316, limit_tokens: 300 })
    expect(service.gate.holdFor({ session_id: 'other', agent: 'mac-claude', project: null })).toBeNull()
    // raised: no longer crossed
    expect(service.setBudget({ scope: 'session', target: CLAUDE_SESSION, tokens: 1000 }).crossed).toBe(false)
    expect(readGate(join(home, STATE_DB_FILE))).toEqual([])
    // lowered again, then the session released
    service.setBudget({ scope: 'session', target: CLAUDE_SESSION, tokens: 10 })
    const released = service.releaseSession(b.id, CLAUDE_SESSION)
    expect(released.held[0]!.released).toBe(true)
    expect(service.gate.holdFor({ session_id: CLAUDE_SESSION, agent: 'mac-claude', project: null })).toBeNull()
    // changing the budget voids the release
    service.setBudget({ scope: 'session', target: CLAUDE_SESSION, tokens: 20 })
    expect(service.gate.holdFor({ session_id: CLAUDE_SESSION, agent: 'x', project: null })).not.toBeNull()
  })

  it('an agent’s and the fleet’s budgets count today; a dollar budget counts the estimate', async () => {
    const { user, service } = setup()
    // the records are of 2026-12-07: move their hours to today
    const today = new Date()
    await service.scanner.record({ harness: 'claude-code', path: claudeFile(user), agent: 'mac-claude' }, { HOME: user })
    service.store.db.prepare('UPDATE usage_hours SET hour = ?').run(today.toISOString().slice(0, 13))
    expect(service.setBudget({ scope: 'agent', target: 'mac-claude', tokens: 100 }).crossed).toBe(true)
    expect(service.setBudget({ scope: 'agent', target: 'someone-else', tokens: 100 }).crossed).toBe(false)
    expect(service.setBudget({ scope: 'day', usd: 0.0007 }).crossed).toBe(true)
    expect(service.setBudget({ scope: 'day', usd: 0.0008 }).crossed).toBe(false)
    expect(service.gate.holdFor({ session_id: 'a-new-one', agent: 'mac-claude', project: null })).toMatchObject({ scope: 'agent' })
  })

  it('a budget no trusted key signed, or one edited in the DB, gates nothing and says why', async () => {
    const { user, db, service } = setup()
    await service.scanner.record({ harness: 'claude-code', path: claudeFile(user) }, { HOME: user })
    db.prepare("INSERT INTO usage_budgets (scope, target, tokens, created_at, updated_at) VALUES ('session', ?, 1, 'x', 'x')").run(
      CLAUDE_SESSION
    )
    const [forged] = service.budgets()
    expect(forged).toMatchObject({ trusted: false, untrusted_reason: 'unsigned', crossed: false })
    const real = service.setBudget({ scope: 'session', target: CLAUDE_SESSION, tokens: 10 })
    expect(real.crossed).toBe(true)
    // an agent raising its own budget in the DB: the signature no longer matches
    db.prepare('UPDATE usage_budgets SET tokens = 1000000 WHERE id = ?').run(real.id)
    expect(service.budget(real.id)).toMatchObject({ trusted: false, untrusted_reason: 'bad signature', crossed: false })
    // and a release it wrote itself is ignored
    service.setBudget({ scope: 'session', target: CLAUDE_SESSION, tokens: 10 })
    db.prepare("INSERT INTO usage_releases (budget_id, session_id, created_at, signature) VALUES (?, ?, 'x', NULL)").run(
      real.id,
      CLAUDE_SESSION
    )
    expect(service.gate.holdFor({ session_id: CLAUDE_SESSION, agent: 'a', project: null })).not.toBeNull()
  })

  it('refuses a budget that is not one, changing nothing', () => {
    const { service } = setup()
    expect(() => service.setBudget({ scope: 'session', target: '', tokens: 5 })).toThrow(/names its session/)
    expect(() => service.setBudget({ scope: 'agent', target: 'a', tokens: 5, usd: 1 })).toThrow(/one of them/)
    expect(() => service.setBudget({ scope: 'agent', target: 'a', tokens: 0 })).toThrow(/at least 1/)
    expect(() => service.setBudget({ scope: 'day', usd: -1 })).toThrow(/above 0/)
    expect(service.budgets()).toEqual([])
  })

  it('the hook’s store checks without a key', () => {
    const { db, keys, service } = setup()
    service.setBudget({ scope: 'day', tokens: 5 })
    const hookStore = new BudgetStore(db, { trust: () => keys.decisionTrust() })
    expect(hookStore.list()[0]!.trusted).toBe(true)
    expect(() => hookStore.set({ scope: 'day', target: '', tokens: 1, usd: null })).toThrow(/cannot sign/)
    expect(budgetPayload({ scope: 'day', target: '', tokens: 5, usd: null })).toBe('["muster.budget/1","day","",5,null]')
  })
})

describe('prices', () => {
  it('dated API ids and provider prefixes find their model; overrides win', () => {
    const p = new Prices(undefined, { 'claude-sonnet-4-5': { input: 1, output: 1, cache_write: 1, cache_read: 1 } })
    expect(p.keyOf('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5')
    expect(p.keyOf('anthropic/claude-opus-5-5')).toBe('claude-opus-5-5')
    expect(p.of('claude-sonnet-4-5')!.input).toBe(1)
    expect(p.keyOf('gpt-5.1-codex')).toBeNull()
    expect(p.estimate('nope', { input: 1, output: 1, cache_write: 0, cache_read: 0 })).toBeNull()
  })
})
