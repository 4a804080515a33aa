/**
 * The operator's side of presence: the home's policy, risky list and enrolled authenticators
 * (`presence.json`), changed only as follows once an authenticator is enrolled:
 * - enrolling another one, removing one, or changing the policy or the risky list needs a proof
 *   of presence from an enrolled authenticator, over a text naming the change and the settings it
 *   follows (the SHA-256 of the file as it is: a proof made for one change cannot be replayed after
 *   another);
 * - a policy other than `off` is refused while no authenticator is enrolled, and the last one
 *   cannot be removed while the policy is not `off`.
 * The first authenticator is enrolled without one (there is none yet): the screen and
 * `muster presence` list every enrolled authenticator with where and when it was enrolled.
 */
import { createHash } from 'node:crypto'
import { ApiError } from '../../shared/api-error'
import { riskyProblem, trustChangeText, type PresencePolicy, type RiskyPattern } from '../../shared/approvals/presence'
import { readProof, type StoredCredential } from './credentials'
import { registrationOptions, verifyEnrolment, type RegistrationOptions } from './enrolment'
import { presenceText, readPresenceFile, writePresence, type PresenceConfig } from './presence-config'
import { challengeFor, verifyPresence } from './verify-assertion'

/** What a home without an authenticator lets an agent do, said plainly wherever gates are shown. */
export const SELF_APPROVAL_WARNING = 'an agent running as you can approve its own calls'

/** How long an enrolment's challenge is good for. */
const ENROL_TTL_MS = 5 * 60_000

/** An enrolled authenticator as shown (no public key). */
export interface ShownCredential {
  id: string
  name: string
  rp_id: string
  created_at: string
  origin: string | null
  transports: string[]
}

/** The presence settings as shown. */
export interface PresenceStatus {
  policy: PresencePolicy
  risky: RiskyPattern[]
  credentials: ShownCredential[]
  /** `SELF_APPROVAL_WARNING` while no authenticator is enrolled (or the policy is off), else null. */
  warning: string | null
  /** The SHA-256 (base64url) of the settings as they are: what a change's proof follows. */
  head: string
  changed_at: string | null
}

/** A change that needs presence: its text, its challenge, and the authenticators that may sign it. */
export interface PresenceChallenge {
  text: string
  challenge: string
  credentials: { id: string; rp_id: string; transports: string[] }[]
}

/** The changes a proof can approve. */
export type PresenceChange =
  | { op: 'credential.add'; fields: { id: string; public_key: string; rp_id: string; name: string } }
  | { op: 'credential.remove'; fields: { id: string } }
  | { op: 'policy'; fields: { policy: PresencePolicy; risky: RiskyPattern[] } }

const shown = (c: StoredCredential): ShownCredential => ({
  id: c.id,
  name: c.name,
  rp_id: c.rp_id,
  created_at: c.created_at,
  origin: c.origin ?? null,
  transports: c.transports ?? []
})

/** The authenticators that may sign, as a page asks for them. */
export function signers(credentials: readonly StoredCredential[]): PresenceChallenge['credentials'] {
  return credentials.map((c) => ({ id: c.id, rp_id: c.rp_id, transports: c.transports ?? [] }))
}

/** The presence settings of one home. */
export class PresenceService {
  private readonly enrolments = new Map<string, { origin: string; expires: number }>()

  constructor(
    readonly home: string,
    private readonly operator: () => string
  ) {}

  private read(): { text: string | null; config: PresenceConfig; head: string } {
    const { text, config } = readPresenceFile(this.home)
    return {
      text,
      config,
      head: createHash('sha256')
        .update(text ?? presenceText(config))
        .digest('base64url')
    }
  }

  /** The settings as shown. */
  status(): PresenceStatus {
    const { config, head } = this.read()
    return {
      policy: config.policy,
      risky: config.risky,
      credentials: config.credentials.map(shown),
      warning: config.credentials.length === 0 || config.policy === 'off' ? SELF_APPROVAL_WARNING : null,
      head,
      changed_at: config.changed_at
    }
  }

  /** The enrolled authenticators with their public keys (for gates and checks). */
  credentials(): StoredCredential[] {
    return this.read().config.credentials
  }

  /** The settings themselves. */
  config(): PresenceConfig {
    return this.read().config
  }

  /**
   * The settings approvals enforce: a file that cannot be read counts as presence for every allow
   * and no authenticator (nothing can be approved, only denied, until it is fixed; `status` says why).
   */
  enforced(): PresenceConfig {
    try {
      return this.read().config
    } catch {
      return { policy: 'every-allow', risky: [], credentials: [], changed_at: null }
    }
  }

  /** The challenge of a change, following the settings as they are now. */
  challenge(change: PresenceChange): PresenceChallenge {
    const { config, head } = this.read()
    const text = trustChangeText(change.op, change.fields, head)
    return { text, challenge: challengeFor(text), credentials: signers(config.credentials) }
  }

  /** Checks a change's proof when one is needed (an authenticator is enrolled); throws why it does not count. */
  private async approve(change: PresenceChange, config: PresenceConfig, head: string, proof: unknown): Promise<void> {
    if (config.credentials.length === 0) return
    if (proof === undefined || proof === null)
      throw new ApiError('this change needs your presence: approve it with an enrolled authenticator', 'forbidden')
    const v = await verifyPresence(readProof(proof), trustChangeText(change.op, change.fields, head), config.credentials)
    if (!v.ok) throw new ApiError(`presence not confirmed: ${v.why}`, 'forbidden')
  }

  /** Starts enrolling an authenticator on a page at `origin`: the options for `navigator.credentials.create`. */
  async enrolStart(origin: string): Promise<RegistrationOptions> {
    const options = await registrationOptions(origin, this.operator(), this.read().config.credentials)
    const now = Date.now()
    for (const [k, v] of this.enrolments) if (v.expires < now) this.enrolments.delete(k)
    this.enrolments.set(options.challenge, { origin, expires: now + ENROL_TTL_MS })
    return options
  }

  /**
   * Finishes an enrolment: the authenticator's answer to the options of `enrolStart` (same page).
   * Once another authenticator is enrolled, the addition needs its presence: without a proof the
   * answer is the challenge to sign (the enrolment stays pending), then the same call with it.
   */
  async enrolFinish(o: {
    response: unknown
    origin: string
    name: string
    presence?: unknown
  }): Promise<{ enrolled: ShownCredential } | { needs_presence: PresenceChallenge }> {
    const challenge = readChallenge(o.response)
    const pending = challenge ? this.enrolments.get(challenge) : undefined
    if (!pending || pending.expires < Date.now() || pending.origin !== o.origin)
      throw new ApiError('this enrolment was not started here or has expired: start again', 'conflict')
    const credential = await verifyEnrolment(o.response, challenge!, o.origin, o.name)
    const { config, head } = this.read()
    if (config.credentials.some((c) => c.id === credential.id)) throw new ApiError('this authenticator is enrolled already', 'conflict')
    const change: PresenceChange = {
      op: 'credential.add',
      fields: { id: credential.id, public_key: credential.public_key, rp_id: credential.rp_id, name: credential.name }
    }
    if (config.credentials.length && (o.presence === undefined || o.presence === null)) return { needs_presence: this.challenge(change) }
    await this.approve(change, config, head, o.presence)
    this.enrolments.delete(challenge!)
    writePresence(this.home, { ...config, credentials: [...config.credentials, credential], changed_at: new Date().toISOString() })
    return { enrolled: shown(credential) }
  }

  /** The proof a pending enrolment needs: the challenge of adding `credential` (after `enrolFinish` refused it for want of one). */
  addChallenge(credential: { id: string; public_key: string; rp_id: string; name: string }): PresenceChallenge {
    return this.challenge({ op: 'credential.add', fields: credential })
  }

  /** Removes an enrolled authenticator (with presence; never the last one while the policy is not off). */
  async remove(o: { id: string; presence?: unknown }): Promise<void> {
    const { config, head } = this.read()
    if (!config.credentials.some((c) => c.id === o.id)) throw new ApiError(`no enrolled authenticator ${o.id}`, 'not_found')
    if (config.credentials.length === 1 && config.policy !== 'off')
      throw new ApiError(`the policy is ${config.policy}: set it to off before removing the last authenticator`, 'conflict')
    await this.approve({ op: 'credential.remove', fields: { id: o.id } }, config, head, o.presence)
    writePresence(this.home, {
      ...config,
      credentials: config.credentials.filter((c) => c.id !== o.id),
      changed_at: new Date().toISOString()
    })
  }

  /** Sets the policy (and the risky list when given): not `off` without an authenticator; with presence once one is enrolled. */
  async setPolicy(o: { policy: PresencePolicy; risky?: RiskyPattern[]; presence?: unknown }): Promise<PresenceStatus> {
    const { config, head } = this.read()
    const risky = (o.risky ?? config.risky).map((p) => ({ kind: p.kind, pattern: p.pattern.trim(), category: p.category }))
    for (const p of risky) {
      const problem = riskyProblem(p)
      if (problem) throw new ApiError(`risky pattern '${p.pattern}': ${problem}`, 'invalid_input')
    }
    if (o.policy !== 'off' && config.credentials.length === 0)
      throw new ApiError(`a policy of ${o.policy} needs an enrolled authenticator: enrol one first (muster presence enroll)`, 'conflict')
    await this.approve({ op: 'policy', fields: { policy: o.policy, risky } }, config, head, o.presence)
    writePresence(this.home, { ...config, policy: o.policy, risky, changed_at: new Date().toISOString() })
    return this.status()
  }
}

/** The challenge a registration answer's client data carries, or null. */
function readChallenge(response: unknown): string | null {
  try {
    const r = response as { response?: { clientDataJSON?: unknown } }
    const text = Buffer.from(String(r.response?.clientDataJSON ?? ''), 'base64url').toString('utf8')
    const c = (JSON.parse(text) as { challenge?: unknown }).challenge
    return typeof c === 'string' ? c : null
  } catch {
    return null
  }
}
