/**
 * The Patches screen's address: `#/patches?hub=NAME&state=waiting` opens it on a hub, filtered to
 * a state (the Overview's "patches waiting" links so).
 */
import { PATCH_STATES, type PatchState } from '../../../../shared/api'

/** What the address asks the Patches screen to show. */
export interface PatchesRoute {
  /** A registered hub's name (null: MemPalace's default palace). */
  hub: string | null
  state: PatchState | ''
  /** A patch to select (its `patch.ready` event id; a `muster://patch` link). */
  id: string
}

/** The address of the Patches screen showing `route`. */
export function patchesHref(route: Partial<PatchesRoute>): string {
  const q = new URLSearchParams()
  if (route.hub) q.set('hub', route.hub)
  if (route.state) q.set('state', route.state)
  if (route.id) q.set('id', route.id)
  const s = q.toString()
  return s ? `#/patches?${s}` : '#/patches'
}

/** Reads a Patches address; null when the hash is not one or asks for nothing. */
export function patchesRouteFromHash(hash: string): Partial<PatchesRoute> | null {
  const m = /^#\/patches\?(.*)$/.exec(hash)
  if (!m) return null
  const q = new URLSearchParams(m[1])
  const out: Partial<PatchesRoute> = {}
  const hub = q.get('hub')
  if (hub) out.hub = hub
  const state = q.get('state')
  if (state && (PATCH_STATES as readonly string[]).includes(state)) out.state = state as PatchState
  const id = q.get('id')
  if (id) out.id = id
  return Object.keys(out).length ? out : null
}
