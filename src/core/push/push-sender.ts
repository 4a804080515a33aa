/**
 * Sends one message to one device through its push service (RFC 8030): the maintained `web-push`
 * library encrypts the payload to the device's keys (RFC 8291, aes128gcm) and signs the VAPID JWT
 * (RFC 8292); the request goes out over HTTPS with its TTL and Urgency.
 */
import { request, type Agent } from 'node:https'
import webpush from 'web-push'
import type { StoredDevice } from './push-devices'
import type { VapidPair } from './vapid-keys'

/**
 * Who sends (the JWT's `sub`). Push services only need a contact form they accept; Muster has no
 * server of its own to name, so this is a placeholder address they parse.
 */
export const VAPID_SUBJECT = 'mailto:operator@muster.invalid'
/** How long a push service keeps a message for an unreachable device (an approval waits minutes, not days). */
export const PUSH_TTL_S = 3600
/** How long one push service gets to answer. */
const SEND_TIMEOUT_MS = 10_000

/** How one send went: the push service's status (201 Created when accepted), or the failure. */
export interface SendResult {
  status: number
  /** The device is gone (404/410): its subscription should be forgotten. */
  gone: boolean
  error: string | null
}

/** Options of a send. */
export interface SendOptions {
  urgency: 'very-low' | 'low' | 'normal' | 'high'
  /** The HTTPS agent (default Node's; trusts NODE_EXTRA_CA_CERTS). */
  agent?: Agent
}

/** Sends `payload` (JSON text) to `device`. */
export function sendPush(device: StoredDevice, payload: string, vapid: VapidPair, opts: SendOptions): Promise<SendResult> {
  const details = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    payload,
    {
      vapidDetails: { subject: VAPID_SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: PUSH_TTL_S,
      urgency: opts.urgency,
      contentEncoding: 'aes128gcm'
    }
  )
  const url = new URL(details.endpoint)
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: details.method, headers: details.headers, timeout: SEND_TIMEOUT_MS, ...(opts.agent ? { agent: opts.agent } : {}) },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text = (text + d).slice(0, 300)))
        res.on('end', () => {
          const status = res.statusCode ?? 0
          const ok = status >= 200 && status < 300
          resolve({
            status,
            gone: status === 404 || status === 410,
            error: ok ? null : `push service answered ${status}${text ? `: ${text.trim()}` : ''}`
          })
        })
        res.on('error', (e) => resolve({ status: 0, gone: false, error: e.message }))
      }
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} within ${SEND_TIMEOUT_MS / 1000} s`)))
    req.on('error', (e) => resolve({ status: 0, gone: false, error: `cannot reach ${url.origin}: ${e.message}` }))
    req.end(details.body ?? undefined)
  })
}
