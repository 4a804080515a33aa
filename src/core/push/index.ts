/**
 * The push domain's face: phone push without an account (Web Push): the home's VAPID key, the
 * subscribed devices, and new needs-you items sent through each device's own push service,
 * encrypted end to end. Code outside src/core/push imports only this.
 */
export { PushService, type PushSent, type PushSources } from './push-service'
export { maskSecrets, pushMessage, pushOrder, PREVIEW_CHARS } from './push-message'
export { PUSH_TTL_S, VAPID_SUBJECT, type SendResult } from './push-sender'
export { VAPID_FILE, ensureVapid, readVapid, type VapidPair } from './vapid-keys'
