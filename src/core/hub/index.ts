/**
 * The hub domain's face: the hub service (every MemPalace hub, local or remote, behind one
 * object), the hub port's types, palace location and the hub's value rules. Its strata (store,
 * folds, local, remote, open, watch) stay inside; core domains that write hub files directly use
 * the store's face (core/hub/store), the approve-hook's context the opener's (core/hub/open).
 * Handlers, the CLI, the server and main import only this.
 */
export { ACTIVE_WITHIN_MS } from './folds/overview'
export { type AppendInput, type HubPort, type HubSubscription, type StoredArtifact } from './hub-port'
export { chooseHub, choiceReason, describeChoice, noHubHint, type HubChoice, type HubChoiceSource, type HubSelection } from './hub-choice'
export { HubRegistry, type RegisteredHubs } from './hub-registry'
export { HubService } from './hub-service'
export { resolvePalace, userHome, type PalaceEnv } from './locate'
export { isHubUrl } from './remote/remote-url'
export { readTokenFile } from './remote/token-file'
export { artifactIntegrity, sha256Hex, type ArtifactIntegrity } from './values/integrity'
export { MAX_ARTIFACT_BYTES, patchWarnings, taskSlug } from './values/validate'
