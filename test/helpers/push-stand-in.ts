/**
 * A local stand-in for a browser vendor's push service, for tests without the internet. It speaks
 * RFC 8030 (a message is a POST to the subscription's endpoint with a TTL, answered 201 Created),
 * checks the sender's VAPID JWT as a push service does (RFC 8292: `Authorization: vapid t=…, k=…`,
 * an ES256 signature by `k`, `k` the key the subscription was made with, `aud` the endpoint's
 * origin, `exp` in the future and at most a day ahead, a `sub`), and decrypts the aes128gcm payload
 * with the subscription's private keys as the browser would (RFC 8291 + RFC 8188), written here
 * with node:crypto alone, apart from the library that encrypted it. Served over HTTPS with a
 * self-signed certificate (`selfSignedCert`), as push services are.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { selfSignedFiles } from './self-signed'

/** A self-signed certificate for 127.0.0.1 (openssl): its PEM texts and the certificate's file. */
export function selfSignedCert(): { cert: string; key: string; certFile: string } {
  const files = selfSignedFiles('ec')
  return { cert: readFileSync(files.cert, 'utf8'), key: readFileSync(files.key, 'utf8'), certFile: files.cert }
}

/** One message the stand-in accepted. */
export interface PushArrival {
  device: string
  ttl: number
  urgency: string | null
  /** The VAPID JWT's claims. */
  claims: { aud: string; exp: number; sub: string }
  /** The decrypted payload as text. */
  text: string
}

/** A browser's subscription at the stand-in: what the page hands over, and the keys it keeps. */
export interface StandInDevice {
  id: string
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } }
  ecdh: ECDH
  auth: Buffer
}

/** A running stand-in. */
export interface PushStandIn {
  origin: string
  /** A new subscription made with `applicationServerKey` (the sender's VAPID public key, base64url). */
  subscribe(applicationServerKey: string): StandInDevice
  /** Forgets a device: its endpoint answers 410 Gone from now on. */
  unsubscribe(id: string): void
  /** What arrived, in order. */
  arrivals: PushArrival[]
  /** What was refused, and why (status and reason). */
  refusals: { device: string; status: number; why: string }[]
  close(): Promise<void>
}

const b64u = (b: Buffer): string => b.toString('base64url')

/** The public key of an uncompressed P-256 point (65 bytes) as a KeyObject. */
function p256Key(point: Buffer) {
  if (point.length !== 65 || point[0] !== 4) throw new Error('not an uncompressed P-256 point')
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, format: 'jwk' })
}

/** Checks a VAPID `Authorization` header for `endpoint`; the JWT's claims, or why it is refused. */
function checkVapid(header: string | undefined, endpoint: URL, boundKey: string, now: number) {
  const m = /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!m) return { why: `no VAPID authorization: '${header ?? ''}'` }
  const [, jwt, k] = m as unknown as [string, string, string]
  if (k !== boundKey) return { why: 'k is not the key the subscription was made with' }
  const [h, p, s] = jwt.split('.')
  if (!h || !p || !s) return { why: 'malformed JWT' }
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; typ?: string }
  if (head.alg !== 'ES256') return { why: `JWT alg ${head.alg}` }
  const sig = Buffer.from(s, 'base64url')
  if (
    sig.length !== 64 ||
    !verify('sha256', Buffer.from(`${h}.${p}`), { key: p256Key(Buffer.from(k, 'base64url')), dsaEncoding: 'ieee-p1363' }, sig)
  )
    return { why: 'bad JWT signature' }
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string }
  if (claims.aud !== endpoint.origin) return { why: `aud ${claims.aud} is not ${endpoint.origin}` }
  if (!(claims.exp > now / 1000) || claims.exp > now / 1000 + 24 * 3600 + 60) return { why: `exp ${claims.exp} out of range` }
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return { why: `sub ${claims.sub}` }
  return { claims }
}

/**
 * Decrypts an aes128gcm Web Push body with the device's keys (RFC 8291 section 3.4, RFC 8188
 * section 2): header salt(16) rs(4) idlen(1) keyid (the sender's ephemeral public key), then records
 * of `rs` bytes, each ending in a delimiter (2 for the last) and zero padding.
 */
export function decryptPush(body: Buffer, device: Pick<StandInDevice, 'ecdh' | 'auth'>): Buffer {
  const salt = body.subarray(0, 16)
  const rs = body.readUInt32BE(16)
  const idlen = body[20]!
  const asPublic = body.subarray(21, 21 + idlen)
  const uaPublic = device.ecdh.getPublicKey()
  const secret = device.ecdh.computeSecret(asPublic)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic])
  const ikm = Buffer.from(hkdfSync('sha256', secret, device.auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const out: Buffer[] = []
  const records = body.subarray(21 + idlen)
  for (let seq = 0, at = 0; at < records.length; seq++, at += rs) {
    const rec = records.subarray(at, at + rs)
    const iv = Buffer.from(nonce)
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ seq) >>> 0, 8) // the record's sequence number XORed into the nonce's end
    const d = createDecipheriv('aes-128-gcm', cek, iv)
    d.setAuthTag(rec.subarray(rec.length - 16))
    const plain = Buffer.concat([d.update(rec.subarray(0, rec.length - 16)), d.final()])
    let end = plain.length - 1
    while (end >= 0 && plain[end] === 0) end--
    const last = at + rs >= records.length
    if (plain[end] !== (last ? 2 : 1)) throw new Error(`record ${seq}: bad padding delimiter`)
    out.push(plain.subarray(0, end))
  }
  return Buffer.concat(out)
}

/** Starts a stand-in on 127.0.0.1 with the certificate `tls`. */
export async function startPushStandIn(tls: { cert: string; key: string }): Promise<PushStandIn> {
  const devices = new Map<string, StandInDevice & { boundKey: string }>()
  const arrivals: PushArrival[] = []
  const refusals: PushStandIn['refusals'] = []
  let origin = ''
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (d: Buffer) => chunks.push(d))
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? ''
      const refuse = (status: number, why: string): void => {
        refusals.push({ device: id, status, why })
        res.writeHead(status, { 'content-type': 'text/plain' }).end(why)
      }
      const device = devices.get(id)
      if (req.method !== 'POST') return refuse(405, 'use POST')
      if (!device) return refuse(410, 'no such subscription')
      const ttl = Number(req.headers.ttl)
      if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return refuse(400, 'missing or bad TTL')
      const urgency = (req.headers.urgency as string | undefined) ?? null
      if (urgency !== null && !['very-low', 'low', 'normal', 'high'].includes(urgency)) return refuse(400, `bad Urgency ${urgency}`)
      const vapid = checkVapid(req.headers.authorization, new URL(device.subscription.endpoint), device.boundKey, Date.now())
      if (!('claims' in vapid)) return refuse(403, vapid.why)
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, `Content-Encoding ${req.headers['content-encoding']}`)
      const body = Buffer.concat(chunks)
      if (body.length > 4096) return refuse(413, 'payload over 4096 bytes')
      let text: string
      try {
        text = decryptPush(body, device).toString('utf8')
      } catch (err) {
        return refuse(400, `cannot decrypt: ${(err as Error).message}`)
      }
      arrivals.push({ device: id, ttl, urgency, claims: vapid.claims!, text })
      res.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    arrivals,
    refusals,
    subscribe(applicationServerKey) {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16)
      const id = randomBytes(8).toString('hex')
      const device = {
        id,
        ecdh,
        auth,
        boundKey: applicationServerKey,
        subscription: { endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } }
      }
      devices.set(id, device)
      return device
    },
    unsubscribe(id) {
      devices.delete(id)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
