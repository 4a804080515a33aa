/**
 * The trust ledger (`trust-ledger.ts`) through the allowlist store, on a real state DB and its
 * file, with real ed25519 keys: a deleted rule's row put back, an older version of a changed rule,
 * or a rule signed before the ledger (until adopted) answers no hook; a revoked key counts for
 * nothing in a hook installed with it; the ledger's copies edited, or a record signed by another
 * key, withdraw every rule until the operator's Muster repairs them; a rotation needs both keys.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { openStateDb } from '../fleet/state-db'
import type { Db } from '../sqlite'
import { readMirror } from './allowlist-mirror'
import { AllowlistStore } from './allowlist-store'
import { DecisionTrust, rulePayload } from './decision-trust'
import { OperatorKeys } from './operator-keys'
import { checkLedger, LEDGER_FILE, readLedgerFile, recordPayload, rotationPayload, type LedgerRecord } from './trust-ledger'

const closers: (() => void)[] = []
afterEach(() => {
  while (closers.length) closers.pop()!()
})

function setup() {
  const home = join(tmpDir(), 'home')
  const db: Db = openStateDb(home)
  closers.push(() => db.close())
  const keys = new OperatorKeys(home)
  keys.ensure()
  const signer = keys.signer()
  // the operator's Muster (signs) and a hook (checks only, with the keys it was installed with)
  const app = new AllowlistStore(db, { trust: () => keys.decisionTrust(), signer: () => signer })
  const hook = (installed = keys.decisionTrust()) => {
    const store = new AllowlistStore(db, { trust: () => installed })
    return new AllowlistStore(db, { trust: () => installed }, store.checkLedger())
  }
  return { home, db, keys, signer, app, hook }
}
const call = (command: string) => ({ agent: 'mac-claude', tool_name: 'Bash', tool_input: { command } })
type Row = {
  id: number
  agent_pattern: string
  tool_name: string
  input_pattern: string
  note: string | null
  created_at: string
  signature: string
}
const rowOf = (db: Db, id: number) => db.prepare('SELECT * FROM approval_rules WHERE id = ?').get(id) as Row
const putBack = (db: Db, r: Row) =>
  db
    .prepare(
      'INSERT OR REPLACE INTO approval_rules (id, agent_pattern, tool_name, input_pattern, note, created_at, signature) VALUES (?, ?, ?, ?, ?, ?, ?)'
    )
    .run(r.id, r.agent_pattern, r.tool_name, r.input_pattern, r.note, r.created_at, r.signature)

describe('trust ledger: revocation of rules', () => {
  it('a deleted rule put back (its row, the old mirror) answers nothing; a changed rule’s older version neither', () => {
    const { home, db, app, hook } = setup()
    const rule = app.save({ agent_pattern: 'mac-*', tool_name: 'Bash', input_pattern: 'npm test*' })
    expect(hook().firstMatch(call('npm test'))?.id).toBe(rule.id)
    const row = rowOf(db, rule.id)
    const mirror = readFileSync(join(home, 'allowlist-mirror.json'), 'utf8')
    app.delete(rule.id)
    // the agent restores the row (a valid signature of the operator's key) and the mirror it copied
    putBack(db, row)
    writeFileSync(join(home, 'allowlist-mirror.json'), mirror)
    expect(hook().firstMatch(call('npm test'))).toBeNull()
    expect(hook().list()[0]).toMatchObject({ trusted: false, untrusted_reason: expect.stringMatching(/^withdrawn/) })
    expect(readMirror(join(home, 'muster.sqlite3'))).toBeNull()
    // a rule narrowed by the operator: its wider older version put back answers nothing
    const wide = app.save({ agent_pattern: '*', tool_name: 'Bash', input_pattern: 'git *' })
    const before = rowOf(db, wide.id)
    app.save({ id: wide.id, agent_pattern: '*', tool_name: 'Bash', input_pattern: 'git status' })
    expect(hook().firstMatch(call('git status'))?.id).toBe(wide.id)
    putBack(db, before)
    expect(hook().firstMatch(call('git push --force'))).toBeNull()
    // the ledger's records: nothing adopted (no rule before it), then each save and deletion
    const ops = (readLedgerFile(home) as LedgerRecord[]).map((r) => r.body.op)
    expect(ops).toEqual(['rule.add', 'rule.revoke', 'rule.add', 'rule.add'])
  })

  it('rules signed before the ledger answer once the operator’s Muster adopts them, not before', () => {
    const { db, signer, app, hook } = setup()
    const spec = { agent_pattern: '*', tool_name: 'Bash', input_pattern: 'make lint' }
    db.prepare(
      'INSERT INTO approval_rules (agent_pattern, tool_name, input_pattern, note, created_at, signature) VALUES (?, ?, ?, ?, ?, ?)'
    ).run(
      spec.agent_pattern,
      spec.tool_name,
      spec.input_pattern,
      null,
      new Date().toISOString(),
      JSON.stringify(signer.sign(rulePayload(spec)))
    )
    expect(hook().firstMatch(call('make lint'))).toBeNull()
    app.attestMirror()
    expect(hook().firstMatch(call('make lint'))).not.toBeNull()
    expect((readLedgerFile(join(db.name, '..')) as LedgerRecord[]).map((r) => r.body.op)).toEqual(['rules.adopt'])
  })

  it('an edited ledger or a record signed by another key withdraws every rule; the operator’s Muster repairs it', () => {
    const { home, db, app, hook } = setup()
    const rule = app.save({ agent_pattern: '*', tool_name: 'Bash', input_pattern: 'npm test*' })
    const dir = home
    const good = readFileSync(join(dir, LEDGER_FILE), 'utf8')
    // the file edited: the copies disagree
    writeFileSync(join(dir, LEDGER_FILE), good.replace(`"id":${rule.id}`, `"id":${rule.id + 1}`))
    expect(hook().checkLedger()).toMatchObject({ ok: false, why: expect.stringMatching(/disagree at record 1/) })
    expect(hook().firstMatch(call('npm test'))).toBeNull()
    // an agent's own key appends a record to both copies (re-adding a rule it restored)
    const agent = new OperatorKeys(tmpDir()).signer()
    const recs = JSON.parse(good).records as LedgerRecord[]
    const next = {
      seq: 2,
      prev: '',
      at: new Date().toISOString(),
      body: { op: 'rule.add' as const, rule: { id: 99, key: agent.key, sig: 'x' } }
    }
    const forged = { ...next, sig: agent.sign(recordPayload(next)) }
    writeFileSync(join(dir, LEDGER_FILE), JSON.stringify({ format: 'muster.trust-ledger/1', records: [...recs, forged] }))
    db.prepare('INSERT INTO trust_ledger (seq, record) VALUES (2, ?)').run(JSON.stringify(forged))
    expect(hook().checkLedger().ok).toBe(false)
    expect(hook().firstMatch(call('npm test'))).toBeNull()
    // the operator's Muster (at start) keeps what its key signed and drops the rest
    app.attestMirror()
    expect(hook().checkLedger().ok).toBe(true)
    expect(hook().firstMatch(call('npm test'))?.id).toBe(rule.id)
    expect((readLedgerFile(dir) as LedgerRecord[]).length).toBe(1)
  })
})

describe('trust ledger: keys', () => {
  it('a revoked key counts for nothing, though a hook was installed trusting it', () => {
    const { app, signer, hook, keys } = setup()
    const remote = new OperatorKeys(tmpDir()).signer()
    keys.trust(remote.key, 'remote')
    const installed = new DecisionTrust([signer.key, remote.key])
    expect(hook(installed).checkLedger().keys).toEqual(new Set([signer.key, remote.key]))
    app.appendTrust({ op: 'key.revoke', key: remote.key }, signer, () => keys.untrust(remote.key))
    const after = hook(installed).checkLedger()
    expect(after.keys).toEqual(new Set([signer.key]))
    expect(keys.trusted()).toEqual([])
  })

  it('a rotation counts only signed by the key it retires and by its successor', () => {
    const { signer } = setup()
    const next = new OperatorKeys(tmpDir()).signer()
    const body = { op: 'key.rotate' as const, from: signer.key, to: next.key, proof: next.sign(rotationPayload(signer.key, next.key)).sig }
    const rec = (b: typeof body, by = signer): LedgerRecord => {
      const r = { seq: 1, prev: '', at: '2026-01-01T00:00:00.000Z', body: b }
      return { ...r, sig: by.sign(recordPayload(r)) }
    }
    const ok = checkLedger([rec(body)], [signer.key])
    expect(ok.ok && [...ok.keys]).toEqual([next.key])
    // the successor's proof missing (an agent hands the operator's trust to its own key)
    expect(checkLedger([rec({ ...body, proof: signer.sign(rotationPayload(signer.key, next.key)).sig })], [signer.key]).ok).toBe(false)
    // signed by the successor alone
    expect(checkLedger([rec(body, next)], [signer.key]).ok).toBe(false)
  })
})
