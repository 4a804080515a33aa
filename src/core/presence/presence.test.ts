/**
 * Presence with real WebAuthn ceremonies: a software authenticator (test/helpers) enrols through
 * the service and signs challenges; the checks are the library's (@simplewebauthn/server).
 */
import { chownSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decisionChallengeText } from '../../shared/approvals/presence'
import { SoftAuthenticator } from '../../../test/helpers/soft-authenticator'
import { tmpDir } from '../../../test/helpers/tmp'
import {
  GATE_FORMAT,
  PresenceService,
  challengeFor,
  emptyPresence,
  loadHookPresence,
  preloadPresenceCheck,
  readPresence,
  rootOwnedProblem,
  verifyPresence
} from '.'
import type { PresenceProof } from './credentials'

const ORIGIN = 'http://localhost:4173'

/** An assertion as a decision carries it. */
function proofOf(a: ReturnType<SoftAuthenticator['assert']>): PresenceProof {
  return {
    credential: a.id,
    authenticator_data: a.response.authenticatorData,
    client_data_json: a.response.clientDataJSON,
    signature: a.response.signature
  }
}

/** Enrols `auth` in the service's home (with `approver`'s presence once one is enrolled). */
async function enrol(svc: PresenceService, auth: SoftAuthenticator, name: string, approver?: SoftAuthenticator) {
  const options = await svc.enrolStart(ORIGIN)
  const response = auth.register(options.challenge, ORIGIN)
  const first = await svc.enrolFinish({ response, origin: ORIGIN, name })
  if (!approver) return 'enrolled' in first ? first.enrolled : null
  if (!('needs_presence' in first)) throw new Error('a second authenticator was enrolled without presence')
  const done = await svc.enrolFinish({
    response,
    origin: ORIGIN,
    name,
    presence: proofOf(approver.assert(first.needs_presence.challenge, { origin: ORIGIN }))
  })
  return 'enrolled' in done ? done.enrolled : null
}
const readCredentialPublicKey = (a: SoftAuthenticator) => a.publicKeyCose().toString('base64url')

describe('presence', () => {
  it('enrols a first authenticator, then refuses a second one and every policy change without presence', async () => {
    const home = tmpDir()
    const svc = new PresenceService(home, () => 'desk')
    expect(svc.status().warning).toBe('an agent running as you can approve its own calls')
    await expect(svc.setPolicy({ policy: 'risky' })).rejects.toThrow(/needs an enrolled authenticator/)
    const phone = new SoftAuthenticator('localhost', ORIGIN)
    const shown = await enrol(svc, phone, 'phone')
    expect(shown).toMatchObject({ id: phone.id, name: 'phone', rp_id: 'localhost', origin: ORIGIN })
    // still off: the warning stays until a policy is set
    expect(svc.status().warning).not.toBeNull()
    await expect(svc.setPolicy({ policy: 'every-allow' })).rejects.toThrow(/needs your presence/)
    const ch = svc.challenge({ op: 'policy', fields: { policy: 'every-allow', risky: svc.status().risky } })
    // a proof made for something else does not count
    await expect(
      svc.setPolicy({ policy: 'every-allow', presence: proofOf(phone.assert(challengeFor('other'), { origin: ORIGIN })) })
    ).rejects.toThrow(/presence not confirmed/)
    await svc.setPolicy({ policy: 'every-allow', presence: proofOf(phone.assert(ch.challenge, { origin: ORIGIN })) })
    expect(readPresence(home).policy).toBe('every-allow')
    expect(svc.status().warning).toBeNull()

    // an agent's own software authenticator cannot join without the phone
    const agents = new SoftAuthenticator('localhost', ORIGIN)
    const options = await svc.enrolStart(ORIGIN)
    expect(await svc.enrolFinish({ response: agents.register(options.challenge, ORIGIN), origin: ORIGIN, name: 'mine' })).toHaveProperty(
      'needs_presence'
    )
    // and signing its own addition does not help
    const self = svc.addChallenge({ id: agents.id, public_key: readCredentialPublicKey(agents), rp_id: 'localhost', name: 'mine' })
    const again = await svc.enrolStart(ORIGIN)
    await expect(
      svc.enrolFinish({
        response: agents.register(again.challenge, ORIGIN),
        origin: ORIGIN,
        name: 'mine',
        presence: proofOf(agents.assert(self.challenge, { origin: ORIGIN }))
      })
    ).rejects.toThrow(/does not trust/)
    // the phone approves a security key
    const key = new SoftAuthenticator('localhost', ORIGIN)
    await enrol(svc, key, 'YubiKey', phone)
    expect(svc.status().credentials.map((c) => c.name)).toEqual(['phone', 'YubiKey'])
    // a proof made before a change cannot be replayed after it
    const removeKey = svc.challenge({ op: 'credential.remove', fields: { id: key.id } })
    await svc.remove({ id: key.id, presence: proofOf(key.assert(removeKey.challenge, { origin: ORIGIN })) })
    await expect(svc.remove({ id: phone.id, presence: proofOf(phone.assert(removeKey.challenge, { origin: ORIGIN })) })).rejects.toThrow(
      /set it to off/
    )
  })

  it('a proof counts only from a trusted credential, for its RP ID, from a page that serves it, with the touch', async () => {
    const auth = new SoftAuthenticator('localhost', ORIGIN)
    const cred = { id: auth.id, public_key: auth.publicKeyCose().toString('base64url'), rp_id: 'localhost', name: 'k', created_at: '' }
    const text = decisionChallengeText({
      correlation_id: 'appr_1',
      request_id: 'evt_1',
      harness: 'claude-code',
      agent: 'a',
      tool_name: 'Bash',
      input_sha256: 'x',
      decision: 'allow',
      always: false
    })
    const good = proofOf(auth.assert(challengeFor(text), { origin: ORIGIN }))
    expect(await verifyPresence(good, text, [cred])).toMatchObject({ ok: true })
    expect(await verifyPresence(good, `${text} `, [cred])).toMatchObject({ ok: false })
    expect(await verifyPresence(good, text, [])).toMatchObject({ ok: false, why: expect.stringMatching(/does not trust/) })
    expect(await verifyPresence(proofOf(auth.assert(challengeFor(text), { origin: 'http://evil.example' })), text, [cred])).toMatchObject({
      ok: false,
      why: expect.stringMatching(/cannot speak for localhost/)
    })
    expect(await verifyPresence(proofOf(auth.assert(challengeFor(text), { origin: ORIGIN, present: false })), text, [cred])).toMatchObject({
      ok: false,
      why: expect.stringMatching(/not present/)
    })
    expect(
      await verifyPresence(proofOf(auth.assert(challengeFor(text), { origin: ORIGIN, rpId: 'evil.example' })), text, [cred])
    ).toMatchObject({
      ok: false
    })
    expect(await verifyPresence({ ...good, signature: good.signature.slice(0, -4) + 'AAAA' }, text, [cred])).toMatchObject({ ok: false })
    expect(await verifyPresence(null, text, [cred])).toMatchObject({ ok: false, why: 'no presence proof' })
  })

  it('the preload warms the check up on a throwaway proof that the real check accepts', async () => {
    // a warm-up that stopped verifying would leave the first decided call to pay the first-use costs again
    expect(await preloadPresenceCheck()).toMatchObject({ ok: true, credential: { name: 'warm-up', rp_id: 'localhost' } })
  })

  it('the hook trusts an admin-owned gate file only when nobody but root can change it, and fails closed otherwise', () => {
    const warns: string[] = []
    const dir = join(tmpDir(), 'etc-muster')
    mkdirSync(dir, { mode: 0o755 })
    chmodSync(dir, 0o755)
    const file = join(dir, 'gate.json')
    const gate = {
      format: GATE_FORMAT,
      user: 'op',
      uid: 1000,
      home: '/home/op/.muster',
      operator_keys: [],
      presence: { ...emptyPresence(), policy: 'risky' },
      ledger: null,
      installed_at: ''
    }
    writeFileSync(file, JSON.stringify(gate), { mode: 0o644 })
    chmodSync(file, 0o644)
    if (process.getuid?.() !== 0) {
      // not root: this machine's files are not root's, so the check refuses (as it must)
      expect(rootOwnedProblem(file)).toMatch(/not owned by root/)
      return
    }
    // the temporary folder's parents (/tmp: sticky, world-writable) disqualify it: the check walks up
    expect(rootOwnedProblem(file)).toMatch(/can be changed by others/)
    const h = loadHookPresence('/nowhere', file, (l) => warns.push(l))
    expect(h.config.policy).toBe('every-allow')
    expect(h.config.credentials).toEqual([])
    expect(warns[0]).toMatch(/cannot be trusted/)
    chownSync(file, 65534, 65534)
    expect(rootOwnedProblem(file)).toMatch(/not owned by root/)
  })

  it('a damaged presence file fails closed in the hook', () => {
    const home = tmpDir()
    writeFileSync(join(home, 'presence.json'), '{"policy": "sometimes"}')
    const warns: string[] = []
    const h = loadHookPresence(home, undefined, (l) => warns.push(l))
    expect(h.config.policy).toBe('every-allow')
    expect(warns[0]).toMatch(/unknown presence policy/)
  })
})
