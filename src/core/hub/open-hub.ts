/**
 * Opens one hub by location for a caller that needs a single `Hub` and nothing else (the
 * `approve-hook` process, which must start in a few milliseconds and so cannot build the hub
 * service): a palace folder is the local implementation. Remote hubs (a server URL) are not
 * reachable from here yet; the caller reports that.
 */
import { ApiError } from '../../shared/api-error'
import type { Hub } from './hub-port'
import { LocalHubBase } from './local-hub-base'

/** The part of the hub interface a caller that appends and follows uses (any `Hub` has it). */
export type AppendAndWait = Pick<Hub, 'kind' | 'location' | 'label' | 'status' | 'list' | 'subscribe' | 'append' | 'putArtifact' | 'close'>

/** Options of `openHub`. */
export interface OpenHubOptions {
  /** How long reads and writes wait for a locked hub (default MemPalace's 10 s). */
  lockTimeoutMs?: number
}

/** True for a remote hub's location (`http(s)://...`). */
export function isHubUrl(location: string): boolean {
  return /^https?:\/\//i.test(location)
}

/** The hub at a palace folder (only the code that appends and follows is loaded); a URL is refused with a clear error. */
export function openHub(location: string, opts: OpenHubOptions = {}): AppendAndWait {
  if (isHubUrl(location)) throw new ApiError(`remote hub ${location} cannot be reached from this command yet: use a local palace (--palace)`, 'invalid_input')
  return new LocalHubBase(location, { busyTimeoutMs: opts.lockTimeoutMs })
}
