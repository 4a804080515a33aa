/**
 * The hook under a presence policy (in process, real hub file, a software authenticator from
 * test/helpers): an allow counts only with a proof over exactly this request and decision from an
 * authenticator the gate trusts; a signed one-tap allow is ignored where presence is needed, deny
 * needs none, and no rule answers such a call.
 */
import { describe, expect, it } from 'vitest'
import { closeAfterEach, openTestHub, openTestRules } from '../../../test/helpers/hook-hub'
import { SoftAuthenticator } from '../../../test/helpers/soft-authenticator'
import { testKeys } from '../../../test/helpers/operator-key'
import { claudeBashJson } from '../../../test/helpers/hook-payloads'
import { DEFAULT_RISKY, type PresencePolicy } from '../../shared/approvals/presence'
import type { HubEventEnvelope } from '../../shared/contract/hub-types'
import { EventType } from '../../shared/contract/hub-vocabulary'
import type { HubPort } from '../hub/hub-port'
import { challengeFor, type PresenceProof, type StoredCredential } from '../presence'
import { decisionAppend } from './approval-events'
import { decisionPresenceText, inputSha256 } from './approval-presence'
import { runApproveHook, type HookContext } from './approve-hook'

const operator = testKeys()
const ORIGIN = 'http://localhost:4173'
const phone = new SoftAuthenticator('localhost', ORIGIN)
const phoneCred: StoredCredential = {
  id: phone.id,
  public_key: phone.publicKeyCose().toString('base64url'),
  rp_id: 'localhost',
  name: 'phone',
  created_at: ''
}

const closers = closeAfterEach()

function setup(policy: PresencePolicy) {
  const { hub } = openTestHub(closers)
  const { rules } = openTestRules(closers, operator)
  const warnings: string[] = []
  const ctx: HookContext = {
    hub,
    rules,
    trust: operator.trust,
    presence: {
      config: { policy, risky: [...DEFAULT_RISKY], credentials: [phoneCred], changed_at: null },
      source: 'test',
      managed: false,
      operatorKeys: null,
      ledger: null
    },
    operator: 'desk-muster',
    projectFor: () => 'muse',
    warn: (l) => warnings.push(l)
  }
  return { hub, rules, ctx, warnings }
}

const bash = (command: string) => claudeBashJson({ command, description: 'x' })

async function request(hub: HubPort): Promise<HubEventEnvelope> {
  for (;;) {
    const req = (await hub.list({ type: EventType.approvalRequest, order: 'desc', limit: 1 })).events[0]
    if (req) return req
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** A proof by `auth` for an allow of `req` with the given input. */
function proof(req: HubEventEnvelope, input: Record<string, unknown>, auth = phone, always = false): PresenceProof {
  const text = decisionPresenceText(req, inputSha256(input), 'allow', always)
  const a = auth.assert(challengeFor(text), { origin: ORIGIN })
  return {
    credential: a.id,
    authenticator_data: a.response.authenticatorData,
    client_data_json: a.response.clientDataJSON,
    signature: a.response.signature
  }
}

const decide = (hub: HubPort, req: HubEventEnvelope, decision: 'allow' | 'deny', presence?: PresenceProof) =>
  hub.append(
    decisionAppend(
      req,
      { decision, reason: '', decided_by: 'desk-muster', from_agent: 'desk-muster' },
      { signer: operator.signer, presence }
    )
  )

describe('approve-hook under a presence policy', () => {
  it('ignores a signed allow without presence, or with a proof of something else, and allows with the phone', async () => {
    const { hub, ctx, warnings } = setup('every-allow')
    const input = { command: 'npm test', description: 'x' }
    const run = runApproveHook(bash('npm test'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const req = await request(hub)
    expect(req.metadata.gate).toMatchObject({
      presence: 'every-allow',
      presence_required: true,
      authenticators: 1,
      keys: [operator.signer.key]
    })
    await decide(hub, req, 'allow')
    await decide(hub, req, 'allow', proof(req, { command: 'npm test -- --bail', description: 'x' }))
    const stranger = new SoftAuthenticator('localhost', ORIGIN)
    await decide(hub, req, 'allow', proof(req, input, stranger))
    await decide(hub, req, 'allow', proof(req, input))
    const out = await run
    expect(out.verdict).toBe('allow')
    expect(warnings.filter((w) => /ignored a forged decision/.test(w))).toHaveLength(3)
    expect(warnings.join('\n')).toMatch(/without your presence \(no presence proof\)/)
    expect(warnings.join('\n')).toMatch(/does not trust/)
  })

  it('a deny needs no presence', async () => {
    const { hub, ctx } = setup('every-allow')
    const run = runApproveHook(bash('rm -rf /'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    await decide(hub, await request(hub), 'deny')
    expect((await run).verdict).toBe('deny')
  })

  it('under "risky", a one-tap allow answers an ordinary call, and a risky one waits for presence', async () => {
    const { hub, ctx, warnings } = setup('risky')
    const plain = runApproveHook(bash('npm test'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const first = await request(hub)
    expect(first.metadata.gate).toMatchObject({ presence_required: false, risk: null })
    await decide(hub, first, 'allow')
    expect((await plain).verdict).toBe('allow')

    const risky = runApproveHook(bash('git push origin main'), { agent: 'mac-claude', timeoutMs: 2_000 }, ctx)
    let req = await request(hub)
    while (req.id === first.id) req = await request(hub)
    expect(req.metadata.gate).toMatchObject({ presence_required: true, risk: 'push or publish: git push' })
    await decide(hub, req, 'allow')
    // nobody confirmed with presence: the timeout denies, the one-tap allow is never applied
    const out = await risky
    expect(out.verdict).toBe('deny')
    expect(warnings.join('\n')).toMatch(/without your presence/)
  })

  it('no allowlist rule answers a call that needs presence', async () => {
    const { hub, ctx, rules } = setup('risky')
    rules.save({ agent_pattern: '*', tool_name: 'Bash', input_pattern: 'git push *' })
    rules.save({ agent_pattern: '*', tool_name: 'Bash', input_pattern: 'npm test' })
    expect((await runApproveHook(bash('npm test'), { agent: 'mac-claude', timeoutMs: 2_000 }, ctx)).verdict).toBe('allow')
    const pushed = runApproveHook(bash('git push origin main'), { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    let req = await request(hub)
    while (req.metadata.tool_input && (req.metadata.tool_input as { command: string }).command !== 'git push origin main')
      req = await request(hub)
    await decide(hub, req, 'allow', proof(req, { command: 'git push origin main', description: 'x' }))
    expect((await pushed).verdict).toBe('allow')
  })

  it('an "always" allow made with presence leaves Claude Code no rule of its own: the next call comes back for presence', async () => {
    const { hub, ctx } = setup('every-allow')
    const input = { command: 'npm test', description: 'x' }
    const payload = JSON.stringify({ ...JSON.parse(bash('npm test')), hook_event_name: 'PermissionRequest' })
    const run = runApproveHook(payload, { agent: 'mac-claude', timeoutMs: 20_000 }, ctx)
    const req = await request(hub)
    await hub.append(
      decisionAppend(
        req,
        { decision: 'allow', reason: '', decided_by: 'desk-muster', from_agent: 'desk-muster', always: true },
        { signer: operator.signer, presence: proof(req, input, phone, true) }
      )
    )
    const out = await run
    expect(out.verdict).toBe('allow')
    expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } })
  })
})
