/**
 * The phone-push part of the contract (Web Push, no account): the home's VAPID public key a page
 * subscribes with, and the subscribed devices (subscribe, list, revoke). New needs-you items are
 * pushed to every device by a watching service (`core/push`).
 */
import { z } from 'zod'
import { PushDeviceSchema, PushSubscriptionSchema } from './push-types'

export * from './push-types'

const DeviceId = z.string().regex(/^dev_[0-9a-f]{16}$/, 'not a device id')

/** Methods of phone push. */
export const pushMethods = {
  /** The home's VAPID public key (made on first ask), the page's `applicationServerKey`. */
  'push.key': { input: z.object({}).strict(), output: z.object({ public_key: z.string() }) },
  /** Subscribes a device (the same endpoint again renews it: new keys, name and last seen). */
  'push.subscribe': {
    input: z.object({ name: z.string().trim().min(1, 'name the device').max(80), subscription: PushSubscriptionSchema }).strict(),
    output: z.object({ device: PushDeviceSchema })
  },
  /** The subscribed devices, newest first. */
  'push.devices': { input: z.object({}).strict(), output: z.object({ devices: z.array(PushDeviceSchema) }) },
  /** Revokes a device: its subscription is forgotten, nothing more is pushed to it. */
  'push.revoke': { input: z.object({ id: DeviceId }).strict(), output: z.object({ revoked: z.string() }) }
} as const

/** Push sends nothing to the page of its own. */
export const pushEvents = {} as const
