/**
 * The hub a caller without the hub service names with `--hub NAME_OR_URL` (the approve-hook): the
 * registered hub of that name, or the registered remote hub at that URL, with its token; an
 * unregistered URL as it is. The registry and the token store load only when a hub is named (most
 * hooks name a palace, or none).
 */
import type { Db } from '../../sqlite'
import { isHubUrl } from '../remote/remote-url'

/** Where the named hub lives and the token to send it. */
export interface NamedHub {
  location: string
  token: string | null
}

/** Resolves `nameOrUrl` against the hub registry in Muster's state DB (`db`, null when there is none). */
export async function registeredHub(db: Db | null, home: string, nameOrUrl: string): Promise<NamedHub> {
  const [{ HubRegistry, locationOf }, { normalizeHubUrl }] = await Promise.all([import('../hub-registry'), import('../remote/remote-url')])
  const registry = db ? new HubRegistry(db) : null
  const rec = !registry ? null : isHubUrl(nameOrUrl) ? registry.findByUrl(normalizeHubUrl(nameOrUrl)) : registry.find(nameOrUrl)
  if (!rec && !isHubUrl(nameOrUrl)) throw new Error(`unknown hub '${nameOrUrl}' (see: muster hubs list)`)
  if (!rec) return { location: nameOrUrl, token: null }
  const token = rec.token_file ? (await import('../remote/remote-token')).loadToken(home, rec.token_file, rec.name) : null
  return { location: locationOf(rec), token }
}
