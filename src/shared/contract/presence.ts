/**
 * The presence part of the contract: enrolling and removing the operator's authenticators
 * (WebAuthn ceremonies run by the page: `navigator.credentials.create` / `.get`), and the home's
 * presence policy and risky list. Once an authenticator is enrolled, every change needs a proof of
 * presence from one: ask `presence.challenge` for what to sign, then pass the proof.
 */
import { z } from 'zod'
import { PRESENCE_POLICIES } from '../approvals/presence'
import {
  PresenceChallengeSchema,
  PresenceCredentialSchema,
  PresenceProofSchema,
  PresenceStatusSchema,
  RiskyPatternSchema
} from './presence-types'

export * from './presence-types'

/** The page a ceremony runs on (`location.origin`): its host name is the authenticator's RP ID. */
const Origin = z.string().trim().min(1).max(300)
const CredentialId = z.string().trim().min(1).max(1024)

/** Methods of presence. */
export const presenceMethods = {
  /** The policy, the risky list and the enrolled authenticators. */
  'presence.status': { input: z.object({}).strict(), output: PresenceStatusSchema },
  /** What a change needs signed (following the settings as they are). */
  'presence.challenge': {
    input: z.discriminatedUnion('op', [
      z
        .object({ op: z.literal('policy'), policy: z.enum(PRESENCE_POLICIES), risky: z.array(RiskyPatternSchema).max(500).optional() })
        .strict(),
      z.object({ op: z.literal('credential.remove'), id: CredentialId }).strict()
    ]),
    output: PresenceChallengeSchema
  },
  /** Starts enrolling an authenticator on the page at `origin`: the options for `navigator.credentials.create`. */
  'presence.enrolStart': { input: z.object({ origin: Origin }).strict(), output: z.object({ options: z.record(z.string(), z.unknown()) }) },
  /**
   * Finishes an enrolment with the authenticator's answer. Once another authenticator is enrolled
   * the addition needs its presence: without `presence`, the answer is what to sign.
   */
  'presence.enrolFinish': {
    input: z
      .object({
        origin: Origin,
        name: z.string().trim().min(1, 'name the authenticator').max(80),
        response: z.record(z.string(), z.unknown()),
        presence: PresenceProofSchema.optional()
      })
      .strict(),
    output: z.union([z.object({ enrolled: PresenceCredentialSchema }), z.object({ needs_presence: PresenceChallengeSchema })])
  },
  /** Removes an enrolled authenticator (with presence; never the last one while the policy is not off). */
  'presence.remove': {
    input: z.object({ id: CredentialId, presence: PresenceProofSchema.optional() }).strict(),
    output: z.object({ removed: z.string() })
  },
  /** Sets the policy (and the risky list): not `off` without an authenticator; with presence once one is enrolled. */
  'presence.setPolicy': {
    input: z
      .object({
        policy: z.enum(PRESENCE_POLICIES),
        risky: z.array(RiskyPatternSchema).max(500).optional(),
        presence: PresenceProofSchema.optional()
      })
      .strict(),
    output: PresenceStatusSchema
  }
} as const

/** Presence pushes nothing of its own. */
export const presenceEvents = {} as const
