/**
 * The hubs a hub service has open, one per location: a palace folder opens a LocalHub, a
 * registered server URL a RemoteHub (its token read from Muster's home, its mirror kept there).
 * Every call for a location shares the same object, so a remote hub has one live stream.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubPort } from '../hub-port'
import type { HubRegistry, HubRecord } from '../hub-registry'
import { LocalHub } from '../local/local-hub'
import { LazyRemoteHub } from '../remote/lazy-remote-hub'
import type { SyncOptions } from '../remote/remote-sync'
import { loadToken } from '../remote/remote-token'
import { isHubUrl } from '../remote/remote-url'

/** What opening hubs needs. */
export interface OpenHubsOptions {
  registry: HubRegistry
  /** Muster's home (remote hubs keep their token and mirror there); without it only local hubs open. */
  home?: string
  /** How long local reads and writes wait for a locked hub. */
  lockTimeoutMs?: number
  /** Remote sync timing (tests). */
  remoteSync?: SyncOptions
}

/** Open hubs by location. */
export class OpenHubs {
  private readonly open = new Map<string, HubPort>()

  constructor(private readonly o: OpenHubsOptions) {}

  /** The hub at a location: a registered server URL, else a palace folder. */
  at(location: string): HubPort {
    const open = this.open.get(location)
    if (open) return open
    if (isHubUrl(location)) {
      const rec = this.o.registry.findByUrl(location)
      if (!rec)
        throw new ApiError(
          `no hub server registered at ${location} (add it with: muster hubs add --url ${location} --token-file FILE)`,
          'not_found'
        )
      return this.of(rec)
    }
    const hub = new LocalHub(location, { busyTimeoutMs: this.o.lockTimeoutMs })
    this.open.set(location, hub)
    return hub
  }

  /** The hub of a registry record. */
  of(rec: HubRecord): HubPort {
    if (rec.kind === 'local') return this.at(rec.palace!)
    const open = this.open.get(rec.url!)
    if (open) return open
    if (!this.o.home)
      throw new ApiError(`hub '${rec.name}' is a hub server: this Muster process has no home to keep its token and mirror`, 'invalid_input')
    // imported on first use: a process that opens only local hubs never loads the remote client
    const hub = new LazyRemoteHub({
      url: rec.url!,
      token: loadToken(this.o.home, rec.token_file, rec.name),
      home: this.o.home,
      sync: this.o.remoteSync
    })
    this.open.set(rec.url!, hub)
    return hub
  }

  /** Closes the hub at a location (it reopens on next use); `forget` also deletes a remote hub's mirror. */
  async drop(location: string, forget = false): Promise<void> {
    const hub = this.open.get(location)
    this.open.delete(location)
    if (forget && hub instanceof LazyRemoteHub) await hub.destroy()
    else await hub?.close()
  }

  /** Closes every hub. */
  async closeAll(): Promise<void> {
    const all = [...this.open.values()]
    this.open.clear()
    await Promise.all(all.map((h) => h.close()))
  }
}
