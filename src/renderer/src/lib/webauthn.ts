/**
 * The page's side of presence: `navigator.credentials` through @simplewebauthn/browser (the
 * maintained wrapper that turns WebAuthn's JSON into its buffers and back). An assertion is made
 * over the challenge Muster hands out for exactly what is shown; enrolment creates a credential
 * for this page's host name. WebAuthn needs a host name on HTTPS or `localhost`: on an address
 * (`127.0.0.1`) or the desktop app's own scheme this says where to go instead.
 */
import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser'
import type { PresenceChallengeInfo, PresenceProofInput } from '../../../shared/api'

/** Why this page cannot use an authenticator, or null when it can. */
export function presenceUnavailable(loc: Pick<Location, 'protocol' | 'hostname' | 'port'> = window.location): string | null {
  if (typeof window.PublicKeyCredential !== 'function') return 'this browser has no WebAuthn (passkeys, security keys)'
  const host = loc.hostname
  if (loc.protocol === 'http:' && /^(127\.\d+\.\d+\.\d+|\[?::1\]?)$/.test(host))
    return `authenticators work on a host name: open this page at http://localhost:${loc.port}`
  if (loc.protocol !== 'https:' && !(loc.protocol === 'http:' && host === 'localhost'))
    return 'authenticators work over HTTPS or on http://localhost: approve from muster serve in a browser'
  return null
}

/** A user-facing reason for a failed ceremony (cancelled, timed out, no matching authenticator). */
export function ceremonyError(err: unknown): Error {
  if (err instanceof WebAuthnError || (err instanceof Error && err.name === 'NotAllowedError'))
    return new Error('Not confirmed: the authenticator prompt was cancelled or timed out. Nothing was decided.')
  return err instanceof Error ? err : new Error(String(err))
}

/** Asks an enrolled authenticator (of this page's host) to sign a challenge: the proof to send. */
export async function assertPresence(ch: PresenceChallengeInfo): Promise<PresenceProofInput> {
  const problem = presenceUnavailable()
  if (problem) throw new Error(problem)
  const host = window.location.hostname
  const mine = ch.credentials.filter((c) => c.rp_id === host)
  if (!mine.length) throw new Error(`no authenticator is enrolled for ${host}: enrol one in Settings → Presence`)
  try {
    const r = await startAuthentication({
      optionsJSON: {
        challenge: ch.challenge,
        rpId: host,
        allowCredentials: mine.map((c) => ({ id: c.id, type: 'public-key', transports: c.transports as AuthenticatorTransport[] })),
        userVerification: 'preferred',
        timeout: 120_000
      }
    })
    return {
      credential: r.id,
      authenticator_data: r.response.authenticatorData,
      client_data_json: r.response.clientDataJSON,
      signature: r.response.signature,
      ...(r.response.userHandle ? { user_handle: r.response.userHandle } : {})
    }
  } catch (err) {
    throw ceremonyError(err)
  }
}

/** Creates a credential with the options of `presence.enrolStart`: the answer to send back. */
export async function createCredential(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const problem = presenceUnavailable()
  if (problem) throw new Error(problem)
  try {
    return (await startRegistration({
      optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON']
    })) as unknown as Record<string, unknown>
  } catch (err) {
    throw ceremonyError(err)
  }
}
