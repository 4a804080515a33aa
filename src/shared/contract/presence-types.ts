/**
 * Data types of the presence part of the contract: the operator's authenticators (WebAuthn), the
 * home's presence policy and risky list, and the challenges and proofs that carry presence.
 */
import { z } from 'zod'
import { PRESENCE_POLICIES, RISK_CATEGORIES, RISK_KINDS } from '../approvals/presence'

const B64U = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url')

/** A WebAuthn assertion as a decision or a change carries it (what `navigator.credentials.get` answered). */
export const PresenceProofSchema = z
  .object({
    credential: B64U,
    authenticator_data: B64U,
    client_data_json: B64U,
    signature: B64U,
    user_handle: B64U.optional()
  })
  .strict()
/** A proof of presence. */
export type PresenceProofInput = z.infer<typeof PresenceProofSchema>

/** One entry of the risky list. */
export const RiskyPatternSchema = z
  .object({ kind: z.enum(RISK_KINDS), pattern: z.string().trim().min(1).max(300), category: z.enum(RISK_CATEGORIES) })
  .strict()

/** An enrolled authenticator as shown (its public key stays in the home). */
export const PresenceCredentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The host name it was made for (`localhost` for `muster serve` on this machine). */
  rp_id: z.string(),
  created_at: z.string(),
  /** The page it was enrolled from. */
  origin: z.string().nullable(),
  transports: z.array(z.string())
})
/** An enrolled authenticator. */
export type PresenceCredential = z.infer<typeof PresenceCredentialSchema>

/** The home's presence settings. */
export const PresenceStatusSchema = z.object({
  policy: z.enum(PRESENCE_POLICIES),
  risky: z.array(RiskyPatternSchema),
  credentials: z.array(PresenceCredentialSchema),
  /** "an agent running as you can approve its own calls" while nothing protects the approvals, else null. */
  warning: z.string().nullable(),
  /** The SHA-256 of the settings as they are (a change's proof follows it). */
  head: z.string(),
  changed_at: z.string().nullable()
})
/** The presence settings. */
export type PresenceStatusInfo = z.infer<typeof PresenceStatusSchema>

/** What to sign: the text (shown), its challenge, and the authenticators that may sign it. */
export const PresenceChallengeSchema = z.object({
  text: z.string(),
  challenge: z.string(),
  credentials: z.array(z.object({ id: z.string(), rp_id: z.string(), transports: z.array(z.string()) }))
})
/** A challenge. */
export type PresenceChallengeInfo = z.infer<typeof PresenceChallengeSchema>
