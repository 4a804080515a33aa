/**
 * Enrolling an authenticator (service side only; the hook never loads this): registration
 * options for `navigator.credentials.create` and the check of its answer with the maintained
 * library (@simplewebauthn/server). Muster asks for no attestation: what makes a credential
 * trusted is that the operator enrolled it (with the presence of one already enrolled, once there
 * is one), not who made the authenticator.
 */
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server'
import { ApiError } from '../../shared/api-error'
import { originServes, validRpId, type StoredCredential } from './credentials'

/** The options a page passes to `navigator.credentials.create` (JSON, as the library makes them). */
export type RegistrationOptions = Awaited<ReturnType<typeof generateRegistrationOptions>>

/** The RP ID of a page origin (its host name), or an error saying why it cannot enrol. */
export function rpIdOf(origin: string): string {
  let host: string
  try {
    host = new URL(origin).hostname.toLowerCase()
  } catch {
    throw new ApiError(`not a page origin: ${origin}`, 'invalid_input')
  }
  if (!validRpId(host))
    throw new ApiError(
      `authenticators work on a host name, not an address: open Muster at http://localhost:<port> (or its HTTPS name on the LAN) instead of ${origin}`,
      'invalid_input'
    )
  if (!originServes(origin, host)) throw new ApiError(`authenticators need HTTPS or http://localhost, not ${origin}`, 'invalid_input')
  return host
}

/** Registration options for a page at `origin`, excluding the credentials enrolled already. */
export async function registrationOptions(
  origin: string,
  operator: string,
  enrolled: readonly StoredCredential[]
): Promise<RegistrationOptions> {
  const rpID = rpIdOf(origin)
  return generateRegistrationOptions({
    rpName: 'Muster',
    rpID,
    userName: operator,
    userDisplayName: `${operator} (Muster operator)`,
    attestationType: 'none',
    excludeCredentials: enrolled.filter((c) => c.rp_id === rpID).map((c) => ({ id: c.id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: 120_000
  })
}

/** Checks a registration answer for `challenge` made on `origin`; the credential to store. */
export async function verifyEnrolment(response: unknown, challenge: string, origin: string, name: string): Promise<StoredCredential> {
  const rpID = rpIdOf(origin)
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>
  try {
    result = await verifyRegistrationResponse({
      response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false
    })
  } catch (err) {
    throw new ApiError(`the authenticator's answer was refused: ${(err as Error).message}`, 'invalid_input')
  }
  if (!result.verified || !result.registrationInfo) throw new ApiError("the authenticator's answer could not be verified", 'invalid_input')
  const { credential } = result.registrationInfo
  return {
    id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    rp_id: rpID,
    name: name.trim() || 'authenticator',
    created_at: new Date().toISOString(),
    origin,
    ...(credential.transports?.length ? { transports: credential.transports } : {})
  }
}
