/**
 * Opens one hub by location for a caller that needs a single `HubPort` and nothing else (the
 * `approve-hook` process, which must start in a few milliseconds and so cannot build the hub
 * service). A palace folder loads only the local code that appends and follows
 * (`LocalHubBase`); a server URL loads the remote implementation, on demand.
 */
import type { HubPort } from '../hub-port'
import { LocalHubBase } from '../local/local-hub-base'
import { isHubUrl } from '../remote/remote-url'

/** The part of the hub interface a caller that appends and follows uses (any `HubPort` has it). */
export type AppendAndWait = Pick<
  HubPort,
  'kind' | 'location' | 'label' | 'status' | 'list' | 'subscribe' | 'append' | 'putArtifact' | 'close'
>

/** Options of `openHub`. */
export interface OpenHubOptions {
  /** How long reads and writes of a local hub wait for a lock (default MemPalace's 10 s). */
  lockTimeoutMs?: number
  /** Muster's home (a remote hub keeps its mirror there). */
  home: string
  /** A remote hub's bearer token, if it needs one. */
  token?: string | null
  /** A remote hub's connect and read timeout per call (default 30 s). */
  callTimeoutMs?: number
}

/** The hub at a palace folder or a hub server's URL. */
export async function openHub(location: string, opts: OpenHubOptions): Promise<AppendAndWait> {
  if (isHubUrl(location)) {
    const [{ RemoteHub }, { normalizeHubUrl }] = await Promise.all([import('../remote/remote-hub'), import('../remote/remote-url')])
    return new RemoteHub({ url: normalizeHubUrl(location), token: opts.token ?? null, home: opts.home, callTimeoutMs: opts.callTimeoutMs })
  }
  return new LocalHubBase(location, { busyTimeoutMs: opts.lockTimeoutMs })
}
