/**
 * Phone push in one process: the home's VAPID key made once and kept, the device API validated by
 * the contract, and new needs-you items sent to a local push-service stand-in that checks the VAPID
 * JWT and decrypts the payload as a browser would (`test/helpers/push-stand-in.ts`).
 */
import { statSync } from 'node:fs'
import { Agent } from 'node:https'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webpush from 'web-push'
import type { NeedItem } from '../../shared/contract/needs-types'
import { decryptPush, selfSignedCert, startPushStandIn, type PushStandIn } from '../../../test/helpers/push-stand-in'
import { tmpDir } from '../../../test/helpers/tmp'
import { openStateDb } from '../fleet'
import { createService } from '../root'
import type { MusterService } from '../service-types'
import { maskSecrets, PREVIEW_CHARS, PushService, pushMessage, VAPID_FILE } from './index'

let standIn: PushStandIn
let agent: Agent
beforeAll(async () => {
  const tls = selfSignedCert()
  standIn = await startPushStandIn(tls)
  agent = new Agent({ ca: tls.cert })
})
afterAll(async () => {
  agent.destroy()
  await standIn.close()
})

const item = (over: Partial<NeedItem>): NeedItem => ({
  key: `approval:/p:${over.ref ?? 'e1'}`,
  kind: 'approval',
  agent: 'claude-1',
  project: 'muse',
  hub: 'main',
  palace: '/secret/palace/path',
  since: '2026-01-01T00:00:00Z',
  title: 'claude-1 asks to use Bash',
  detail: 'rm -rf dist',
  ref: 'e1',
  link: '#/approvals?hub=main&id=e1',
  ...over
})

/** A push service on a fresh home, trusting the stand-in's certificate. */
function pushOn(home = join(tmpDir(), 'home')) {
  const db = openStateDb(home)
  const push = new PushService({ db, home, toolOf: async (i) => (i.kind === 'approval' ? 'Bash' : null), agent })
  return { home, db, push }
}

describe('the VAPID key', () => {
  it('is made once per home, kept 0600 beside the operator key, and the same after a restart', async () => {
    const home = join(tmpDir(), 'home')
    let service: MusterService = await createService({ home, transport: 'http', watch: false })
    const { public_key } = await service.call('push.key', {})
    expect(Buffer.from(public_key, 'base64url')).toHaveLength(65)
    expect(statSync(join(home, 'keys', VAPID_FILE)).mode & 0o777).toBe(0o600)
    await service.close()
    service = await createService({ home, transport: 'http', watch: false })
    expect((await service.call('push.key', {})).public_key).toBe(public_key)
    await service.close()
  })
})

describe('the device API', () => {
  let service: MusterService
  beforeAll(async () => {
    service = await createService({ home: join(tmpDir(), 'home'), transport: 'http', watch: false })
  })
  afterAll(() => service.close())

  it('subscribes, renews by endpoint, lists without the endpoint or keys, and revokes', async () => {
    const { public_key } = await service.call('push.key', {})
    const d = standIn.subscribe(public_key)
    const { device } = await service.call('push.subscribe', { name: 'phone', subscription: d.subscription })
    expect(device).toMatchObject({ name: 'phone', service: standIn.origin, last_push_at: null, last_error: null })
    const again = await service.call('push.subscribe', { name: 'my phone', subscription: d.subscription })
    expect(again.device.id).toBe(device.id)
    const { devices } = await service.call('push.devices', {})
    expect(devices).toEqual([expect.objectContaining({ id: device.id, name: 'my phone' })])
    expect(JSON.stringify(devices)).not.toContain(d.subscription.keys.auth)
    expect(JSON.stringify(devices)).not.toContain('/push/')
    await expect(service.call('push.revoke', { id: 'dev_0000000000000000' })).rejects.toMatchObject({ code: 'not_found' })
    expect(await service.call('push.revoke', { id: device.id })).toEqual({ revoked: device.id })
    expect((await service.call('push.devices', {})).devices).toEqual([])
  })

  it('refuses a subscription that is not one, and stores nothing', async () => {
    const good = standIn.subscribe('x').subscription
    const bad = [
      { ...good, endpoint: good.endpoint.replace('https:', 'http:') },
      { ...good, endpoint: 'not a url' },
      { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(1) } },
      { ...good, keys: { ...good.keys, auth: 'short' } },
      { ...good, keys: { ...good.keys, p256dh: `A${good.keys.p256dh.slice(1)}` } },
      { ...good, extra: 1 }
    ]
    for (const subscription of bad)
      await expect(service.call('push.subscribe', { name: 'phone', subscription })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(service.call('push.subscribe', { name: ' ', subscription: good })).rejects.toMatchObject({ code: 'invalid_input' })
    expect((await service.call('push.devices', {})).devices).toEqual([])
  })
})

describe('sending', () => {
  it('pushes new items to every device, approvals first, with only what the operator needs to decide', async () => {
    const { push, db } = pushOn()
    const phone = standIn.subscribe(push.publicKey())
    const tablet = standIn.subscribe(push.publicKey())
    const p = push.subscribe('phone', phone.subscription)
    push.subscribe('tablet', tablet.subscription)
    const before = standIn.arrivals.length
    const long = `echo ${'x'.repeat(400)}\u202e; secret`
    push.notify([
      item({ kind: 'patch', ref: 'p1', since: '2025-01-01T00:00:00Z', detail: 'a patch', link: '#/patches?hub=main&id=p1' }),
      item({ ref: 'a1', detail: long })
    ])
    await push.idle()
    const got = standIn.arrivals.slice(before)
    expect(standIn.refusals).toEqual([])
    expect(got).toHaveLength(4)
    // the approval reached both devices before the (older) patch
    expect(got.slice(0, 2).map((a) => JSON.parse(a.text).kind)).toEqual(['approval', 'approval'])
    const approval = got.find((a) => a.device === phone.id && JSON.parse(a.text).kind === 'approval')!
    const msg = JSON.parse(approval.text)
    expect(Object.keys(msg).sort()).toEqual(['agent', 'id', 'kind', 'link', 'preview', 'project', 'tool', 'v'])
    expect(msg).toMatchObject({ v: 1, kind: 'approval', id: 'a1', agent: 'claude-1', project: 'muse', tool: 'Bash' })
    expect(msg.preview.length).toBeLessThanOrEqual(PREVIEW_CHARS + 40)
    expect(msg.preview).not.toContain('\u202e')
    expect(approval.text).not.toContain('/secret/palace/path')
    expect(approval).toMatchObject({ urgency: 'high', claims: { aud: standIn.origin } })
    expect(approval.ttl).toBeGreaterThan(0)
    const patch = got.find((a) => JSON.parse(a.text).kind === 'patch')!
    expect(patch.urgency).toBe('normal')
    expect(JSON.parse(patch.text).tool).toBeNull()
    expect(push.list().find((d) => d.id === p.id)).toMatchObject({ last_push_at: expect.any(String), last_error: null })
    db.close()
  })

  it('forgets a device whose subscription is gone, and keeps why another failed', async () => {
    const { push, db } = pushOn()
    const gone = standIn.subscribe(push.publicKey())
    // subscribed with another server key: the push service refuses this sender's JWT
    const foreign = standIn.subscribe(webpush.generateVAPIDKeys().publicKey)
    push.subscribe('gone', gone.subscription)
    const f = push.subscribe('foreign', foreign.subscription)
    standIn.unsubscribe(gone.id)
    push.notify([item({ ref: 'a2' })])
    await push.idle()
    expect(push.list().map((d) => d.name)).toEqual(['foreign'])
    expect(push.list()[0]).toMatchObject({ id: f.id, last_push_at: null, last_error: expect.stringMatching(/^push service answered 403/) })
    expect(standIn.refusals.at(-1)).toMatchObject({ device: foreign.id, status: 403 })
    db.close()
  })

  it("the stand-in's decryption is the browser's: it reads web-push's aes128gcm and refuses a tampered body", () => {
    const device = standIn.subscribe('x')
    const sealed = webpush.encrypt(device.subscription.keys.p256dh, device.subscription.keys.auth, 'hello', 'aes128gcm')
    // web-push's aes128gcm cipherText is the whole body (header included)
    expect(decryptPush(sealed.cipherText, device).toString()).toBe('hello')
    const tampered = Buffer.from(sealed.cipherText)
    tampered[tampered.length - 20] = tampered[tampered.length - 20]! ^ 1
    expect(() => decryptPush(tampered, device)).toThrow()
  })
})

describe('the preview', () => {
  it('masks what looks like a credential and keeps the rest readable', () => {
    const secret = 'sk-live-8f3a9c2b7d1e4f6a0b5c9d8e7f6a5b4c'
    const cases = [
      `curl -H "Authorization: Bearer ${secret}" https://api.example.com`,
      `export API_KEY=${secret} && make deploy`,
      `mysql --password ${secret} -h db`,
      `git push https://x:${secret}@github.com/o/r`,
      `deploy --token=${secret}`
    ]
    for (const c of cases) {
      const preview = pushMessage(item({ detail: c }), 'Bash').preview
      expect(preview, c).not.toContain(secret.slice(8))
      expect(preview).toContain('…')
    }
    expect(maskSecrets('npm test -- src/core/push')).toBe('npm test -- src/core/push')
    expect(maskSecrets('rm -rf dist')).toBe('rm -rf dist')
  })
})
