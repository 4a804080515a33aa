/**
 * The presence domain's face: the operator's authenticators (WebAuthn), the home's presence policy
 * and risky list, proofs of presence and their check with the maintained library, and the
 * admin-owned gate files the hook trusts. Code outside src/core/presence imports only this.
 */
export { originServes, readCredential, readProof, validRpId, type PresenceProof, type StoredCredential } from './credentials'
export { challengeFor, preloadPresenceCheck, verifyPresence, type PresenceVerdict } from './verify-assertion'
export { PRESENCE_FILE, emptyPresence, parsePresence, readPresence, writePresence, type PresenceConfig } from './presence-config'
export { GATE_FORMAT, readGateFile, rootOwnedProblem, type GateFile } from './gate-file'
export { loadHookPresence, type HookPresence } from './hook-presence'
export {
  PresenceService,
  SELF_APPROVAL_WARNING,
  signers,
  type PresenceChallenge,
  type PresenceChange,
  type PresenceStatus,
  type ShownCredential
} from './presence-service'
