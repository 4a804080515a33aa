/**
 * Which hub a Muster process talks to: one function, `chooseHub`, for every entry (the app,
 * `muster serve`, every CLI command, `muster mcp`, the approve-hook, the session hook and the
 * spool's drainer), so they all pick the same hub for the same home. The order:
 *   1. named: `--hub NAME_OR_URL`, or a palace given by `--palace P`;
 *   2. the registered default: the hub registered first (after `muster demo`, the demo hub);
 *   3. the environment, as MemPalace resolves it: `MEMPALACE_PALACE_PATH` (legacy
 *      `MEMPAL_PALACE_PATH`), `palace_path` in `~/.mempalace/config.json`;
 *   4. MemPalace's default palace, `~/.mempalace/palace`.
 * Choosing opens nothing and creates nothing: a read on a hub that does not exist is refused by
 * the hub itself, and `noHubHint` says which hubs exist and how to pick one.
 */
import { ApiError } from '../../shared/api-error'
import { locationOf, type HubRecord, type RegisteredHubs } from './hub-registry'
import { resolvePalace, type PalaceEnv, type PalaceSource } from './locate'
import { isHubUrl, normalizeHubUrl } from './remote/remote-url'

/** Which hub a call addresses: a registered name (or server URL), a palace folder, or neither (the default). */
export interface HubSelection {
  hub?: string
  palace?: string
}

/** Why a hub was chosen: named by the caller, the registered default, or MemPalace's resolution. */
export type HubChoiceSource = 'hub' | 'registered' | PalaceSource

/** A chosen hub: how it is shown, where it lives, its record when registered, and why it was chosen. */
export interface HubChoice {
  /** The registered name, else the location. */
  name: string
  /** The palace folder, or the hub server's URL. */
  location: string
  /** The registry's record (null: an unregistered palace or URL). */
  record: HubRecord | null
  source: HubChoiceSource
}

/** How each source reads in `muster hubs list` and in errors. */
const SOURCE_TEXT: Record<HubChoiceSource, string> = {
  hub: 'named with --hub',
  flag: 'named with --palace',
  registered: 'registered first',
  env: '$MEMPALACE_PALACE_PATH',
  'legacy-env': '$MEMPAL_PALACE_PATH',
  config: 'palace_path in ~/.mempalace/config.json',
  default: "MemPalace's default palace"
}

/** Why the hub was chosen, in words ("registered first"). */
export function choiceReason(source: HubChoiceSource): string {
  return SOURCE_TEXT[source]
}

/** `choice` as `hubs list` shows the default: "demo (registered first)". */
export function describeChoice(choice: HubChoice): string {
  return `${choice.name} (${choiceReason(choice.source)})`
}

/** The registered hubs of `registry`, or none when it cannot be read (no state DB, an old one). */
function registeredOf(registry: RegisteredHubs | null): HubRecord[] {
  try {
    return registry?.inOrder() ?? []
  } catch {
    return []
  }
}

/**
 * The hub `sel` addresses, in the order above. `cwd` resolves a relative `--palace`. A name that
 * is not registered is not_found; an unregistered server URL is returned as it is (its caller
 * decides whether it may open one).
 */
export function chooseHub(registry: RegisteredHubs | null, sel: HubSelection, env: PalaceEnv, cwd = process.cwd()): HubChoice {
  const named = sel.hub ?? (sel.palace && isHubUrl(sel.palace) ? sel.palace : undefined)
  if (named) {
    if (isHubUrl(named)) {
      const url = normalizeHubUrl(named)
      const rec = registry?.findByUrl(url) ?? null
      return { name: rec?.name ?? url, location: url, record: rec, source: sel.hub ? 'hub' : 'flag' }
    }
    const rec = registry?.find(named) ?? null
    if (!rec) throw new ApiError(`unknown hub '${named}' (${knownHubsText(registeredOf(registry))}; see: muster hubs list)`, 'not_found')
    return { name: rec.name, location: locationOf(rec), record: rec, source: 'hub' }
  }
  if (!sel.palace) {
    const first = registeredOf(registry)[0]
    if (first) return { name: first.name, location: locationOf(first), record: first, source: 'registered' }
  }
  const r = resolvePalace(sel.palace, env, cwd)
  let rec: HubRecord | null = null
  try {
    rec = registry?.findByPalace(r.palace) ?? null
  } catch {
    // no registry to read: the palace unnamed
  }
  return { name: rec?.name ?? r.palace, location: r.palace, record: rec, source: r.source }
}

/** "registered hubs: a, b" or "no hub is registered". */
function knownHubsText(hubs: readonly HubRecord[]): string {
  return hubs.length ? `registered hubs: ${hubs.map((h) => h.name).join(', ')}` : 'no hub is registered'
}

/**
 * What to add to "no hub at P" when a chosen hub has no hub file: why that hub was chosen, which
 * hubs exist and how to pick one ("; it is the default ($MEMPALACE_PALACE_PATH); registered
 * hubs: a, b; pick one with --hub NAME, or create one with muster hubs add DIR --create").
 */
export function noHubHint(registry: RegisteredHubs | null, choice: HubChoice): string {
  const hubs = registeredOf(registry)
  const why =
    choice.source === 'hub' || choice.source === 'flag' ? choiceReason(choice.source) : `the default: ${choiceReason(choice.source)}`
  const pick = hubs.length
    ? 'pick one with --hub NAME (see: muster hubs list) or --palace DIR'
    : 'register one with muster hubs add DIR (--create makes it), or run muster demo'
  return `${why}; ${knownHubsText(hubs)}; ${pick}`
}
