/**
 * Registering and forgetting hub servers (`muster hubs add --url URL --token-file F`, Settings):
 * the URL is normalised, the token (pasted, or read by the CLI from the operator's token file:
 * never a path here, see token-file.ts) checked against the server before anything is stored; then the token is copied into Muster's home (0600) and
 * the record added. Forgetting a server deletes its token copy and its mirror.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubRecord, HubRegistry } from '../hub-registry'
import type { OpenHubs } from './open-hubs'
import { RemoteHub } from '../remote/remote-hub'
import { HubMirror } from '../remote/remote-mirror'
import { loadToken, removeToken, storeToken, validToken } from '../remote/remote-token'
import { defaultRemoteName, normalizeHubUrl, remoteKey } from '../remote/remote-url'

/** What registering a server takes. */
export interface RemoteAddInput {
  url: string
  name?: string
  /** The bearer token itself (absent: a server without a token, or keep the stored one). */
  token?: string
}

/** Where registration reads and writes. */
export interface RemoteRegistrationContext {
  registry: HubRegistry
  hubs: OpenHubs
  home: string | undefined
}

/**
 * Registers a hub server (idempotent per URL; a new token replaces the stored one). The server
 * must answer with the token before anything is stored: an unreachable URL or a refused token is
 * an error and changes nothing.
 */
export async function registerRemoteHub(
  ctx: RemoteRegistrationContext,
  input: RemoteAddInput
): Promise<{ hub: HubRecord; added: boolean }> {
  const { registry, home } = ctx
  if (!home) throw new ApiError("hub servers need Muster's home to keep their token and mirror", 'invalid_input')
  const url = normalizeHubUrl(input.url)
  const given = input.token !== undefined ? validToken(input.token, 'the token') : null
  const existing = registry.findByUrl(url)
  const name = existing?.name ?? (input.name?.trim() || defaultRemoteName(url))
  const taken = existing ? null : registry.find(name)
  if (taken) throw new ApiError(`a hub named '${taken.name}' already exists (${taken.palace ?? taken.url}); pass another name`, 'conflict')
  const token = given ?? (existing ? loadToken(home, existing.token_file, existing.name) : null)

  const probe = new RemoteHub({ url, token, home })
  const status = await probe.status().finally(() => probe.close())
  if (!status.online)
    throw new ApiError(
      `${status.offline_reason ?? `cannot reach ${url}`} (nothing registered)`,
      /HTTP 40[13]/.test(status.offline_reason ?? '') ? 'forbidden' : 'conflict'
    )

  const tokenFile = given !== null ? storeToken(home, url, given) : (existing?.token_file ?? null)
  const result = registry.addRemote(url, name, tokenFile)
  if (existing && given !== null) await ctx.hubs.drop(url) // reopened with the new token on next use
  return result
}

/** After a server was unregistered: closes it, deletes its mirror and its token copy. */
export async function forgetRemoteHub(ctx: RemoteRegistrationContext, rec: HubRecord): Promise<void> {
  await ctx.hubs.drop(rec.url!, true)
  if (!ctx.home) return
  new HubMirror(ctx.home, remoteKey(rec.url!)).destroy()
  removeToken(ctx.home, rec.token_file)
}
