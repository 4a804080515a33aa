/**
 * Notices hubs registered or removed by another process (`muster hubs add` while the app or
 * `muster serve` runs): the state DB's `PRAGMA data_version` changes when any other connection
 * commits, so a tick that finds it unchanged costs one pragma; a changed one compares the
 * registered hubs and calls back only when they differ.
 */
import type { Db } from '../../sqlite'

/** How often the state DB is asked (a hub registered elsewhere is tailed within this, plus a sync). */
export const REGISTRY_POLL_MS = 250

/** Watches the registered hubs (their signature) and calls `changed` when it differs; returns the stop. */
export function watchRegistry(state: Db, signature: () => string, changed: () => void, everyMs = REGISTRY_POLL_MS): () => void {
  let version: unknown = null
  let last = signature()
  const tick = (): void => {
    try {
      const now = state.pragma('data_version', { simple: true })
      if (now === version) return
      version = now
      const sig = signature()
      if (sig === last) return
      last = sig
      changed()
    } catch {
      // a closed or unreadable state DB: nothing to follow; the service's own calls report it
    }
  }
  const timer = setInterval(tick, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
