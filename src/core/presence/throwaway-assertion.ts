/**
 * A throwaway presence proof for warming the assertion check up (`preloadPresenceCheck`): a fresh
 * P-256 credential, its COSE public key (encoded with the WebAuthn library's own CBOR and COSE
 * helpers), authenticator data for `localhost` with the user-present flag, client data naming the
 * given challenge, and an ES256 signature over them. Run through `verifyPresence`, it takes every
 * path a real proof takes (CBOR and COSE decoding, key import, ECDSA verification), so a hook's one
 * decided call is left only the verification itself. It proves nothing: its key is made here and
 * trusted by nobody. Bundled with the library (webauthn-lib.ts re-exports it), so the hook loads
 * both in one part.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { cose, isoCBOR } from '@simplewebauthn/server/helpers'
import type { PresenceProof, StoredCredential } from './credentials'

/** The RP ID and page origin of a throwaway proof. */
const RP_ID = 'localhost'
const ORIGIN = 'http://localhost'
/** Authenticator data's user-present flag. */
const UP = 0x01

/** A throwaway credential and a proof it made over `challenge` (base64url). */
export function throwawayAssertion(challenge: string): { credential: StoredCredential; proof: PresenceProof } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const coseKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [cose.COSEKEYS.kty, cose.COSEKTY.EC2],
      [cose.COSEKEYS.alg, cose.COSEALG.ES256],
      [cose.COSEKEYS.crv, cose.COSECRV.P256],
      [cose.COSEKEYS.x, Buffer.from(jwk.x ?? '', 'base64url')],
      [cose.COSEKEYS.y, Buffer.from(jwk.y ?? '', 'base64url')]
    ])
  )
  const id = Buffer.from('muster-warm-up').toString('base64url')
  // RP ID hash, flags, signature counter (0: none kept)
  const authData = Buffer.concat([createHash('sha256').update(RP_ID).digest(), Buffer.from([UP]), Buffer.alloc(4)])
  const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: ORIGIN, crossOrigin: false }))
  // WebAuthn's ES256 signature: DER, over authenticator data then the client data's hash
  const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), privateKey)
  return {
    credential: { id, public_key: Buffer.from(coseKey).toString('base64url'), rp_id: RP_ID, name: 'warm-up', created_at: '' },
    proof: {
      credential: id,
      authenticator_data: authData.toString('base64url'),
      client_data_json: clientData.toString('base64url'),
      signature: signature.toString('base64url')
    }
  }
}
