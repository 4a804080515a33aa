/**
 * The hub a caller without the hub service talks to (the approve-hook, the session hook's worker,
 * the spool's drainer): chosen by `chooseHub`, exactly as the hub service chooses for the app,
 * `muster serve` and the CLI, and opened alone (`openHub`). The token store loads only for a
 * registered hub server that has a token.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chooseHub, noHubHint, type HubChoice, type HubSelection } from '../hub-choice'
import type { RegisteredHubs } from '../hub-registry'
import type { PalaceEnv } from '../locate'
import { isHubUrl } from '../remote/remote-url'
import { HUB_FILENAME } from '../store/schema'
import { openHub, type AppendAndWait, type OpenHubOptions } from './open-hub'

/** The chosen hub, open, or why it cannot be used. */
export interface OpenedChoice {
  choice: HubChoice | null
  hub: AppendAndWait | { unreachable: string }
}

/**
 * Chooses the hub `sel` addresses among `registry`'s (null: no state DB) and opens it; a choice
 * that fails, a palace without its hub file (with why it was chosen and which hubs exist) or a hub
 * that cannot be opened is `{ unreachable: why }`. Never creates a hub.
 */
export async function openChosenHub(
  registry: RegisteredHubs | null,
  sel: HubSelection,
  where: { env: PalaceEnv; cwd: string },
  opts: Omit<OpenHubOptions, 'token'>
): Promise<OpenedChoice> {
  let choice: HubChoice | null = null
  try {
    choice = chooseHub(registry, sel, where.env, where.cwd)
    const rec = choice.record
    const remote = rec?.kind === 'remote' || (!rec && isHubUrl(choice.location))
    if (!remote && !existsSync(join(choice.location, HUB_FILENAME)))
      return { choice, hub: { unreachable: `no hub at ${choice.location} (${noHubHint(registry, choice)})` } }
    const token = rec?.token_file ? (await import('../remote/remote-token')).loadToken(opts.home, rec.token_file, rec.name) : null
    return { choice, hub: await openHub(choice.location, { ...opts, token }) }
  } catch (err) {
    return { choice, hub: { unreachable: (err as Error).message } }
  }
}
