/**
 * Data types of phone push (Web Push, RFC 8030/8291/8292): a browser's push subscription as the
 * page hands it over (`PushSubscription.toJSON()`), a subscribed device as listed, and what a
 * notification carries.
 */
import { z } from 'zod'

const B64U = /^[A-Za-z0-9_-]+$/

/** A base64url string (no padding) of exactly `bytes` bytes. */
const base64urlBytes = (bytes: number, what: string) =>
  z
    .string()
    .regex(B64U, `${what} must be base64url`)
    .length(Math.ceil((bytes * 4) / 3), `${what} must be ${bytes} bytes`)

/**
 * Where the browser's push service takes messages for one device: always HTTPS (every browser's
 * push service is), a capability URL that is never listed back.
 */
export const PushEndpointSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s)
      return u.protocol === 'https:' && !u.username && !u.password
    } catch {
      return false
    }
  }, 'the endpoint must be an https: URL')

/** A browser's push subscription (`PushSubscription.toJSON()`); an uncompressed point (0x04) starts with `B`. */
export const PushSubscriptionSchema = z
  .object({
    endpoint: PushEndpointSchema,
    expirationTime: z.number().nullable().optional(),
    keys: z
      .object({
        /** The device's P-256 public key, uncompressed (65 bytes). */
        p256dh: base64urlBytes(65, 'keys.p256dh').refine((s) => s.startsWith('B'), 'keys.p256dh must be an uncompressed P-256 point'),
        /** The device's authentication secret (16 bytes). */
        auth: base64urlBytes(16, 'keys.auth')
      })
      .strict()
  })
  .strict()
/** A browser's push subscription. */
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>

/** A subscribed device as listed: never its endpoint or keys, only the push service's origin. */
export const PushDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The origin of the device's push service (`https://fcm.googleapis.com`). */
  service: z.string(),
  created_at: z.string(),
  /** When the device last subscribed or renewed its subscription. */
  last_seen: z.string(),
  /** When a message last reached its push service, or null. */
  last_push_at: z.string().nullable(),
  /** Why the last message did not, or null. */
  last_error: z.string().nullable()
})
/** A subscribed device. */
export type PushDevice = z.infer<typeof PushDeviceSchema>

/** What one notification carries (encrypted end to end): what the operator needs to decide, nothing secret. */
export interface PushMessage {
  v: 1
  /** The needs-you item's kind (`approval` first). */
  kind: string
  /** The thing's own id (an approval's request event id). */
  id: string
  agent: string | null
  project: string | null
  /** The tool an approval asks for, else null. */
  tool: string | null
  /** A short preview, hidden characters shown as escapes. */
  preview: string
  /** The screen where the operator acts on it (`#/approvals?hub=…&id=…`). */
  link: string
}
