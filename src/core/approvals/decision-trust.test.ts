import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { testKeys } from '../../../test/helpers/operator-key'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { decisionAppend } from './approval-events'
import { DecisionTrust, rulePayload } from './decision-trust'
import { OperatorKeys, trustedKeyIds } from './operator-keys'

const op = testKeys()
const request = (id: string, corr: string) =>
  ({
    id,
    stream: 'project/muse',
    room: 'approvals',
    from_agent: 'mac-claude',
    correlation_id: corr,
    metadata: { tool_name: 'Bash', tool_input: { command: 'npm test -- --run' } }
  }) as unknown as HubEventEnvelope
const asEvent = (a: ReturnType<typeof decisionAppend>) =>
  ({ type: a.type, from_agent: a.from_agent, correlation_id: a.correlation_id, metadata: a.metadata }) as HubEventEnvelope

describe('decision trust', () => {
  const req = request('evt_1', 'appr_000000000001')
  const signed = (over: Partial<Parameters<typeof decisionAppend>[1]> = {}, r = req) =>
    asEvent(decisionAppend(r, { decision: 'allow', reason: 'ok', decided_by: 'desk', from_agent: 'desk', ...over }, { signer: op.signer }))

  it('trusts the operator signature; refuses a replay on another request, an edit, an unknown key, no signature', () => {
    expect(op.trust.checkDecision(signed(), req)).toEqual({ ok: true, key: op.signer.key })
    const other = request('evt_2', 'appr_000000000002')
    const replay = { ...signed(), correlation_id: other.correlation_id }
    expect(op.trust.checkDecision(replay, other)).toEqual({ ok: false, why: 'bad signature' })
    const edited = signed({ decision: 'deny' })
    edited.metadata = { ...edited.metadata, decision: 'allow' }
    expect(op.trust.checkDecision(edited, req)).toEqual({ ok: false, why: 'bad signature' })
    const stranger = testKeys()
    const theirs = asEvent(
      decisionAppend(req, { decision: 'allow', reason: '', decided_by: 'desk', from_agent: 'x' }, { signer: stranger.signer })
    )
    expect(op.trust.checkDecision(theirs, req)).toMatchObject({ ok: false, why: /does not trust/ })
    expect(new DecisionTrust([op.signer.key, stranger.signer.key]).checkDecision(theirs, req).ok).toBe(true)
    const bare = asEvent(decisionAppend(req, { decision: 'allow', reason: '', decided_by: 'desk', from_agent: 'mac-claude' }))
    expect(op.trust.checkDecision(bare, req)).toEqual({ ok: false, why: 'unsigned' })
  })

  it("the hook's own timeout needs no key; an allowlist decision needs its signed rule to allow the call", () => {
    const timeout = asEvent(decisionAppend(req, { decision: 'timeout', reason: '', decided_by: 'timeout', from_agent: 'mac-claude' }))
    expect(op.trust.checkDecision(timeout, req)).toEqual({ ok: true, key: null })
    expect(op.trust.checkDecision({ ...timeout, from_agent: 'someone-else' }, req).ok).toBe(false)
    const rule = { agent_pattern: '*', tool_name: 'Bash', input_pattern: 'npm test*' }
    const byRule = (spec: typeof rule, signature = op.signer.sign(rulePayload(spec))) =>
      asEvent(
        decisionAppend(
          req,
          { decision: 'allow', reason: '', decided_by: 'allowlist:Bash(npm test*)', from_agent: 'mac-claude' },
          { rule: { ...spec, signature } }
        )
      )
    expect(op.trust.checkDecision(byRule(rule), req).ok).toBe(true)
    const wide = { ...rule, input_pattern: 'rm *' }
    expect(op.trust.checkDecision(byRule(wide), req)).toMatchObject({ ok: false, why: 'its allowlist rule does not allow this call' })
    expect(op.trust.checkDecision(byRule({ ...rule, input_pattern: '*' }, op.signer.sign(rulePayload(rule))), req)).toMatchObject({
      ok: false,
      why: /its allowlist rule is not trusted: bad signature/
    })
  })
})

describe('operator keys in a home', () => {
  it('made once (0600), trusted keys added and removed, a bad id refused; the hook reads public keys only', () => {
    const home = tmpDir()
    const keys = new OperatorKeys(home)
    expect(keys.publicKey()).toBeNull()
    expect(trustedKeyIds(home)).toEqual([])
    const id = keys.ensure()
    expect(keys.ensure()).toBe(id)
    expect(statSync(join(home, 'keys', 'operator.json')).mode & 0o777).toBe(0o600)
    expect(keys.storage()).toMatch(/^file .*operator\.json \(0600\)$/)
    const other = testKeys().signer.key
    keys.trust(other, 'lab operator')
    expect(trustedKeyIds(home)).toEqual([id, other])
    expect(() => keys.trust('ed25519:short', 'x')).toThrow(/not an operator key id/)
    expect(keys.untrust(other)).toBe(true)
    expect(keys.untrust(other)).toBe(false)
    expect(trustedKeyIds(home)).toEqual([id])
    expect(readFileSync(join(home, 'keys', 'trusted.json'), 'utf8')).not.toContain('pkcs8')
  })
})
