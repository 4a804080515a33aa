/**
 * Enrolled authenticators and the presence proofs they make, as stored: a credential is its id, its
 * COSE public key and the RP ID it was made for (`localhost` for `muster serve` on this machine, the
 * served host name on a LAN); a proof is a WebAuthn assertion (authenticator data, client data,
 * signature), as a decision, a rule or a change of trust carries it. Light (no Node built-in, no
 * WebAuthn library): the hook reads proofs on every decided call.
 */

/** An enrolled authenticator. */
export interface StoredCredential {
  /** Credential id, base64url. */
  id: string
  /** The COSE_Key, base64url. */
  public_key: string
  /** The relying party id it was made for (a host name). */
  rp_id: string
  /** The operator's name for it ("phone", "YubiKey 5C"). */
  name: string
  created_at: string
  /** Where it was enrolled from, as the browser named its page (`http://localhost:4173`). */
  origin?: string
  transports?: string[]
}

/** A WebAuthn assertion as a decision (metadata `presence`) or a change carries it. */
export interface PresenceProof {
  /** The credential id, base64url. */
  credential: string
  authenticator_data: string
  client_data_json: string
  signature: string
  user_handle?: string
}

const B64U = /^[A-Za-z0-9_-]+$/

/** Reads a stored proof, or null when it is not one (every part base64url, bounded). */
export function readProof(v: unknown): PresenceProof | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  const parts = ['credential', 'authenticator_data', 'client_data_json', 'signature'] as const
  for (const k of parts) if (typeof o[k] !== 'string' || !B64U.test(o[k]) || o[k].length > 16_384) return null
  if (o.user_handle !== undefined && (typeof o.user_handle !== 'string' || !B64U.test(o.user_handle) || o.user_handle.length > 1024))
    return null
  return {
    credential: o.credential as string,
    authenticator_data: o.authenticator_data as string,
    client_data_json: o.client_data_json as string,
    signature: o.signature as string,
    ...(typeof o.user_handle === 'string' ? { user_handle: o.user_handle } : {})
  }
}

/** Reads a stored credential, or null when it is not one. */
export function readCredential(v: unknown): StoredCredential | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  if (typeof o.id !== 'string' || !B64U.test(o.id) || typeof o.public_key !== 'string' || !B64U.test(o.public_key)) return null
  if (typeof o.rp_id !== 'string' || !validRpId(o.rp_id)) return null
  return {
    id: o.id,
    public_key: o.public_key,
    rp_id: o.rp_id,
    name: typeof o.name === 'string' ? o.name : 'authenticator',
    created_at: typeof o.created_at === 'string' ? o.created_at : '',
    ...(typeof o.origin === 'string' ? { origin: o.origin } : {}),
    ...(Array.isArray(o.transports) ? { transports: o.transports.filter((t): t is string => typeof t === 'string') } : {})
  }
}

/** True for an RP ID WebAuthn accepts: a host name (`localhost`, `muster.lan`), never an IP address. */
export function validRpId(id: string): boolean {
  if (id.length > 253 || /^\d+(\.\d+){3}$/.test(id) || id.includes(':')) return false
  return /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(id)
}

/**
 * Whether a page origin may speak for an RP ID: its host is the RP ID or under it, over HTTPS, or
 * plain HTTP on `localhost` (the secure contexts a browser lets use WebAuthn).
 */
export function originServes(origin: string, rpId: string): boolean {
  let u: URL
  try {
    u = new URL(origin)
  } catch {
    return false
  }
  if (u.origin !== origin) return false
  const host = u.hostname.toLowerCase()
  const under = host === rpId || host.endsWith(`.${rpId}`)
  if (!under) return false
  return u.protocol === 'https:' || (u.protocol === 'http:' && host === 'localhost')
}
