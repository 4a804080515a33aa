/**
 * The subscribed devices, in the state DB (`push_devices`): one row per browser push subscription.
 * The endpoint and keys are only ever read to send; a listed device shows its push service's origin.
 */
import { randomBytes } from 'node:crypto'
import type { PushDevice, PushSubscriptionInput } from '../../shared/contract/push-types'
import type { Db } from '../sqlite'

/** A device as stored: what sending needs. */
export interface StoredDevice {
  id: string
  name: string
  endpoint: string
  p256dh: string
  auth: string
}

interface Row extends StoredDevice {
  created_at: string
  last_seen: string
  last_push_at: string | null
  last_error: string | null
}

const shown = (r: Row): PushDevice => ({
  id: r.id,
  name: r.name,
  service: new URL(r.endpoint).origin,
  created_at: r.created_at,
  last_seen: r.last_seen,
  last_push_at: r.last_push_at,
  last_error: r.last_error
})

/** The devices of one home's state DB. */
export class PushDevices {
  constructor(private readonly db: Db) {}

  /** Adds a subscription, or renews the device that has its endpoint (keys, name, last seen). */
  subscribe(name: string, sub: PushSubscriptionInput, now = new Date()): PushDevice {
    const at = now.toISOString()
    const id = `dev_${randomBytes(8).toString('hex')}`
    this.db
      .prepare(
        `INSERT INTO push_devices (id, name, endpoint, p256dh, auth, created_at, last_seen)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(endpoint) DO UPDATE SET name = excluded.name, p256dh = excluded.p256dh, auth = excluded.auth,
           last_seen = excluded.last_seen, last_error = NULL`
      )
      .run(id, name, sub.endpoint, sub.keys.p256dh, sub.keys.auth, at, at)
    return shown(this.db.prepare('SELECT * FROM push_devices WHERE endpoint = ?').get(sub.endpoint) as Row)
  }

  /** Every device as listed, newest first. */
  list(): PushDevice[] {
    return (this.db.prepare('SELECT * FROM push_devices ORDER BY created_at DESC, id').all() as Row[]).map(shown)
  }

  /** Every device as sending needs it. */
  targets(): StoredDevice[] {
    return this.db.prepare('SELECT id, name, endpoint, p256dh, auth FROM push_devices ORDER BY created_at').all() as StoredDevice[]
  }

  /** Forgets a device; false when there was none with that id. */
  revoke(id: string): boolean {
    return this.db.prepare('DELETE FROM push_devices WHERE id = ?').run(id).changes > 0
  }

  /** Records how a send went: reached its push service, or why not. */
  sent(id: string, error: string | null, now = new Date()): void {
    if (error === null)
      this.db.prepare('UPDATE push_devices SET last_push_at = ?, last_error = NULL WHERE id = ?').run(now.toISOString(), id)
    else this.db.prepare('UPDATE push_devices SET last_error = ? WHERE id = ?').run(error.slice(0, 300), id)
  }
}
