/**
 * Checks a presence proof (a WebAuthn assertion) with the maintained library
 * (@simplewebauthn/server's `verifyAuthenticationResponse`): made by one of the credentials the
 * caller trusts (the gate's), over the challenge that is the SHA-256 of exactly the text the
 * caller expects (a decision's binding, a rule, a change of trust), for that credential's RP ID,
 * from a page origin that may speak for it, with the user-present flag set. The library is
 * imported on first use (see webauthn-lib.ts). Never throws: every fault is a reason.
 */
import { createHash } from 'node:crypto'
import { originServes, type PresenceProof, type StoredCredential } from './credentials'

/** The outcome: which credential made it, or why it does not count. */
export type PresenceVerdict = { ok: true; credential: StoredCredential } | { ok: false; why: string }

/** The base64url challenge for a text: its SHA-256. */
export function challengeFor(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url')
}

/** The origin a proof's client data names, or null when it cannot be read. */
function originOf(proof: PresenceProof): string | null {
  try {
    const o = JSON.parse(Buffer.from(proof.client_data_json, 'base64url').toString('utf8')) as { origin?: unknown }
    return typeof o.origin === 'string' ? o.origin : null
  } catch {
    return null
  }
}

/** The text a warm-up proof is made over (it is trusted by nothing: its key is thrown away). */
const WARM_UP_TEXT = 'muster presence warm-up'

/**
 * Runs the whole check once on a throwaway proof (see throwaway-assertion.ts) ahead of a real one
 * (a hook waiting on an allow that needs presence): the library's load, its CBOR and COSE decoding,
 * WebCrypto's key import and ECDSA engine all pay their first-use costs now, so the check, when the
 * decision arrives, costs only the verification. Resolves to the warm-up's verdict (for tests);
 * never rejects.
 */
export async function preloadPresenceCheck(): Promise<PresenceVerdict> {
  try {
    const { throwawayAssertion } = await import('./webauthn-lib')
    const { credential, proof } = throwawayAssertion(challengeFor(WARM_UP_TEXT))
    return await verifyPresence(proof, WARM_UP_TEXT, [credential])
  } catch (err) {
    // the check itself will say why
    return { ok: false, why: (err as Error).message }
  }
}

/** Checks `proof` over `text` against `credentials` (see the file comment). */
export async function verifyPresence(
  proof: PresenceProof | null,
  text: string,
  credentials: readonly StoredCredential[]
): Promise<PresenceVerdict> {
  if (!proof) return { ok: false, why: 'no presence proof' }
  const credential = credentials.find((c) => c.id === proof.credential)
  if (!credential) return { ok: false, why: `made by an authenticator this gate does not trust (${proof.credential.slice(0, 16)}…)` }
  const origin = originOf(proof)
  if (!origin || !originServes(origin, credential.rp_id))
    return { ok: false, why: `made on a page (${origin ?? 'unknown'}) that cannot speak for ${credential.rp_id}` }
  try {
    const { verifyAuthenticationResponse } = await import('./webauthn-lib')
    const result = await verifyAuthenticationResponse({
      response: {
        id: proof.credential,
        rawId: proof.credential,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          authenticatorData: proof.authenticator_data,
          clientDataJSON: proof.client_data_json,
          signature: proof.signature,
          ...(proof.user_handle ? { userHandle: proof.user_handle } : {})
        }
      },
      expectedChallenge: challengeFor(text),
      expectedOrigin: origin,
      expectedRPID: credential.rp_id,
      expectedType: 'webauthn.get',
      credential: { id: credential.id, publicKey: Buffer.from(credential.public_key, 'base64url'), counter: 0 },
      // presence is the touch (the UP flag, which the library always requires); a PIN or biometric is the authenticator's own
      requireUserVerification: false
    })
    return result.verified ? { ok: true, credential } : { ok: false, why: 'bad signature' }
  } catch (err) {
    return { ok: false, why: (err as Error).message.replace(/\s+/g, ' ').slice(0, 300) }
  }
}
