/**
 * Presence through the contract's service, with the hook in the same process on the same home:
 * an authenticator enrolled with `presence.*`, the policy set, an allow refused without presence
 * and accepted with a proof over `approvals.presenceChallenge`'s challenge; the inbox shows what
 * the hook did.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hookHome } from '../../../test/helpers/hook-home'
import { claudeBashJson } from '../../../test/helpers/hook-payloads'
import { SoftAuthenticator } from '../../../test/helpers/soft-authenticator'
import type { MusterService } from '../service-types'
import { openHookContext, openRoot } from '../root'
import { runApproveHook } from './approve-hook'

const ORIGIN = 'http://localhost:4173'
const services: MusterService[] = []
afterEach(async () => {
  while (services.length) await services.pop()!.close()
})

const proofOf = (a: ReturnType<SoftAuthenticator['assert']>) => ({
  credential: a.id,
  authenticator_data: a.response.authenticatorData,
  client_data_json: a.response.clientDataJSON,
  signature: a.response.signature
})

/** Enrols a software authenticator through the service and sets the policy with its presence. */
async function enrolled(service: MusterService, policy: 'risky' | 'every-allow') {
  const phone = new SoftAuthenticator('localhost', ORIGIN)
  const { options } = await service.call('presence.enrolStart', { origin: ORIGIN })
  const done = await service.call('presence.enrolFinish', {
    origin: ORIGIN,
    name: 'phone',
    response: phone.register(String(options.challenge), ORIGIN) as unknown as Record<string, unknown>
  })
  expect(done).toHaveProperty('enrolled')
  const ch = await service.call('presence.challenge', { op: 'policy', policy })
  await service.call('presence.setPolicy', { policy, presence: proofOf(phone.assert(ch.challenge, { origin: ORIGIN })) })
  return phone
}

const bash = (command: string) => claudeBashJson({ command }, '/h/t.jsonl')

/** Runs the hook on the home in this process (its own root, as `muster approve-hook` would). */
async function hook(home: string, palace: string, command: string) {
  const root = openRoot({ home, env: {}, state: 'existing' })
  const { ctx, close } = await openHookContext(root, { palace, env: {}, cwd: '/', warn: () => {} })
  try {
    return await runApproveHook(bash(command), { agent: 'mac-claude', timeoutMs: 30_000 }, ctx)
  } finally {
    await close()
    await root.close()
  }
}

async function pending(service: MusterService, command: string) {
  for (let i = 0; i < 500; i++) {
    const { pending } = await service.call('approvals.list', {})
    const hit = pending.find((p) => p.tool_input.command === command)
    if (hit) return hit
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`no request for ${command}`)
}

describe('approvals with presence (service and hook on one home)', () => {
  it('refuses a policy without an authenticator, and an allow without presence; approves with the phone', async () => {
    const { home, palace, service } = await hookHome('desk-muster')
    services.push(service)
    expect((await service.call('presence.status', {})).warning).toBe('an agent running as you can approve its own calls')
    await expect(service.call('presence.setPolicy', { policy: 'risky' })).rejects.toThrow(/needs an enrolled authenticator/)
    const phone = await enrolled(service, 'risky')
    expect((await service.call('presence.status', {})).warning).toBeNull()

    const run = hook(home, palace, 'git push origin main')
    const item = await pending(service, 'git push origin main')
    expect(item).toMatchObject({ presence_required: true, presence_risk: 'push or publish: git push' })
    await expect(service.call('approvals.decide', { hub: 'main', id: item.id, decision: 'allow' })).rejects.toThrow(/needs your presence/)
    const ch = await service.call('approvals.presenceChallenge', { hub: 'main', id: item.id, decision: 'allow' })
    expect(ch).toMatchObject({ needed: true, credentials: [{ id: phone.id }] })
    // a proof for "always allow" is not one for a plain allow
    const always = await service.call('approvals.presenceChallenge', { hub: 'main', id: item.id, decision: 'allow', always: true })
    await expect(
      service.call('approvals.decide', {
        hub: 'main',
        id: item.id,
        decision: 'allow',
        presence: proofOf(phone.assert(always.challenge, { origin: ORIGIN }))
      })
    ).rejects.toThrow(/presence not confirmed/)
    const decided = await service.call('approvals.decide', {
      hub: 'main',
      id: item.id,
      decision: 'allow',
      presence: proofOf(phone.assert(ch.challenge, { origin: ORIGIN }))
    })
    expect(decided.outcome).toBe('decided')
    expect((await run).verdict).toBe('allow')
    const { history } = await service.call('approvals.list', { history_limit: 5 })
    expect(history[0]).toMatchObject({ state: 'allow', decision: { presence: true } })
  })

  it('an ordinary call under "risky" is one tap; a deny never needs presence', async () => {
    const { home, palace, service } = await hookHome('desk-muster')
    services.push(service)
    await enrolled(service, 'risky')
    const plain = hook(home, palace, 'npm test')
    const item = await pending(service, 'npm test')
    expect(item.presence_required).toBe(false)
    await service.call('approvals.decide', { hub: 'main', id: item.id, decision: 'allow' })
    expect((await plain).verdict).toBe('allow')
    const risky = hook(home, palace, 'rm -rf build')
    await service.call('approvals.decide', { hub: 'main', id: (await pending(service, 'rm -rf build')).id, decision: 'deny' })
    expect((await risky).verdict).toBe('deny')
  })
})
