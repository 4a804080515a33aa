/**
 * Phone push for one home: its VAPID key, its subscribed devices, and the sending of new needs-you
 * items (approvals first) to every device, one item after another. A device whose push service says
 * it is gone (404/410) is forgotten; any other failure is kept on the device for the list.
 */
import type { Agent } from 'node:https'
import { ApiError } from '../../shared/api-error'
import type { NeedItem } from '../../shared/contract/needs-types'
import type { PushDevice, PushSubscriptionInput } from '../../shared/contract/push-types'
import type { Db } from '../sqlite'
import { PushDevices } from './push-devices'
import { pushMessage, pushOrder } from './push-message'
import { sendPush, type SendResult } from './push-sender'
import { ensureVapid } from './vapid-keys'

/** What the push service is built on. */
export interface PushSources {
  db: Db
  /** Muster's home (its `keys/vapid.json`). */
  home: string
  /** The tool an approval item asks for (null when unknown or not an approval). */
  toolOf(item: NeedItem): Promise<string | null>
  /** The HTTPS agent for push services (default Node's). */
  agent?: Agent
}

/** One item's sends, as `notify` reports them to a listener (tests, the bench). */
export interface PushSent {
  item: NeedItem
  device: string
  result: SendResult
}

/** Phone push of one home. */
export class PushService {
  private readonly devices: PushDevices
  private queue: Promise<void> = Promise.resolve()
  private readonly listeners = new Set<(sent: PushSent) => void>()

  constructor(private readonly src: PushSources) {
    this.devices = new PushDevices(src.db)
  }

  /** The home's VAPID public key (base64url), made on first ask. */
  publicKey(): string {
    return ensureVapid(this.src.home).publicKey
  }

  /** Subscribes (or renews) a device. */
  subscribe(name: string, subscription: PushSubscriptionInput): PushDevice {
    return this.devices.subscribe(name, subscription)
  }

  /** The subscribed devices, newest first. */
  list(): PushDevice[] {
    return this.devices.list()
  }

  /** Revokes a device; an unknown id is an error and changes nothing. */
  revoke(id: string): void {
    if (!this.devices.revoke(id)) throw new ApiError(`no subscribed device '${id}'`, 'not_found')
  }

  /** Listens to every send (for tests and the bench); returns the unsubscribe function. */
  onSent(listener: (sent: PushSent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Pushes new needs-you items to every device (approvals first), after whatever is being sent. */
  notify(items: readonly NeedItem[]): void {
    if (!items.length) return
    this.queue = this.queue.then(() => this.send(pushOrder(items))).catch(() => undefined)
  }

  /** Settles once everything handed to `notify` so far was sent. */
  idle(): Promise<void> {
    return this.queue
  }

  private async send(items: NeedItem[]): Promise<void> {
    const targets = this.devices.targets()
    if (!targets.length) return
    const vapid = ensureVapid(this.src.home)
    for (const item of items) {
      const tool = item.kind === 'approval' ? await this.src.toolOf(item).catch(() => null) : null
      const payload = JSON.stringify(pushMessage(item, tool))
      const urgency = item.kind === 'approval' ? 'high' : 'normal'
      await Promise.all(
        targets.map(async (device) => {
          const result = await sendPush(device, payload, vapid, { urgency, ...(this.src.agent ? { agent: this.src.agent } : {}) })
          if (result.gone) this.devices.revoke(device.id)
          else this.devices.sent(device.id, result.error)
          for (const l of this.listeners) l({ item, device: device.id, result })
        })
      )
    }
  }
}
