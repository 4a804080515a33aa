/**
 * A software WebAuthn authenticator for tests of the CLI and the service, where no browser runs
 * (the UI's e2e use Chromium's virtual authenticator instead). It lives under test/ and talks to
 * Muster only as a browser would: it answers the options Muster hands out with a registration
 * (attestation "none") or an assertion over the challenge it is given, from a P-256 key it made
 * itself. Nothing in shipped code knows it: a credential of its own is trusted only once it was
 * enrolled through Muster like any authenticator, and only where the test enrolled it.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

/** A CBOR value this encoder writes: maps (int or text keys), byte strings, text, ints. */
type Cbor = number | string | Buffer | Map<number | string, Cbor>

/** Encodes a CBOR head: major type and argument. */
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n])
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n])
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff])
  const b = Buffer.alloc(5)
  b[0] = (major << 5) | 26
  b.writeUInt32BE(n, 1)
  return b
}

/** Encodes a value as CBOR (RFC 8949, definite lengths). */
function cbor(v: Cbor): Buffer {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v)
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8')
    return Buffer.concat([head(3, b.length), b])
  }
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v])
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])])
}

const b64u = (b: Buffer): string => b.toString('base64url')
const sha256 = (b: Buffer | string): Buffer => createHash('sha256').update(b).digest()

/** The flags of authenticator data. */
const UP = 0x01
const UV = 0x04
const AT = 0x40

/** An authenticator holding one credential. */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16)
  private readonly priv: KeyObject
  private readonly pub: KeyObject
  private counter = 0

  constructor(
    readonly rpId = 'localhost',
    readonly origin = 'http://localhost'
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.priv = privateKey
    this.pub = publicKey
  }

  /** The credential id as WebAuthn JSON carries it (base64url). */
  get id(): string {
    return b64u(this.credentialId)
  }

  /** The public key as a COSE_Key (EC2, P-256, ES256). */
  publicKeyCose(): Buffer {
    const jwk = this.pub.export({ format: 'jwk' })
    return cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')]
      ])
    )
  }

  private authData(flags: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(++this.counter)
    const parts = [sha256(this.rpId), Buffer.from([flags | (attested ? AT : 0)]), count]
    if (attested) {
      const len = Buffer.alloc(2)
      len.writeUInt16BE(this.credentialId.length)
      parts.push(Buffer.alloc(16), len, this.credentialId, this.publicKeyCose())
    }
    return Buffer.concat(parts)
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** A registration response (`navigator.credentials.create`'s JSON) for a base64url challenge. */
  register(challenge: string, origin = this.origin) {
    const authData = this.authData(UP | UV, true)
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData]
      ])
    )
    return this.credential({
      clientDataJSON: b64u(this.clientData('webauthn.create', challenge, origin)),
      attestationObject: b64u(attestationObject),
      transports: ['internal']
    })
  }

  /** An assertion (`navigator.credentials.get`'s JSON) over a base64url challenge; `present: false` leaves the UP flag off. */
  assert(challenge: string, opts: { origin?: string; present?: boolean; rpId?: string } = {}) {
    const flags = opts.present === false ? UV : UP | UV
    let authData = this.authData(flags, false)
    if (opts.rpId) authData = Buffer.concat([sha256(opts.rpId), authData.subarray(32)])
    const clientDataJSON = this.clientData('webauthn.get', challenge, opts.origin ?? this.origin)
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.priv)
    return this.credential({
      clientDataJSON: b64u(clientDataJSON),
      authenticatorData: b64u(authData),
      signature: b64u(signature),
      userHandle: undefined as string | undefined
    })
  }

  /** A public-key credential's JSON of this authenticator around `response`. */
  private credential<R>(response: R) {
    return { id: this.id, rawId: this.id, type: 'public-key' as const, clientExtensionResults: {}, response }
  }
}
