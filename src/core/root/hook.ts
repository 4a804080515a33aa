/**
 * What `muster approve-hook` runs against, from the composition root with as little as possible:
 * Muster's state DB as it is (never created or migrated here) for the allowlist, the operator's id
 * and the registered projects (their stores), and one hub port for the selected palace or
 * registered hub. A missing or older state DB simply means no allowlist and requests addressed to `'*'`.
 */
import { resolve, sep } from 'node:path'
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import { AllowlistStore, DecisionTrust, trustedKeyIds, type HookContext } from '../approvals'
import { HubRegistry, type PalaceEnv } from '../hub'
import { openChosenHub } from '../hub/open'
import { loadHookPresence } from '../presence'
import type { Db } from '../sqlite'
import { NoStateDb, type Root } from './root'

/** How long the hook waits for a locked hub before it answers `ask` (a locked hub for longer is not normal). */
export const HOOK_LOCK_TIMEOUT_MS = 5_000
/** A hub server's connect and read timeout per call: a server that hangs still gets an answer within 5 s. */
export const HOOK_CALL_TIMEOUT_MS = 3_000

/** Where the hook looks. */
export interface HookEnvOptions {
  /** `--palace P`. */
  palace?: string
  /** `--hub NAME_OR_URL`. */
  hub?: string
  env: PalaceEnv
  cwd: string
  lockTimeoutMs?: number
  /** `--operator-keys`: the keys the hook was installed with (default: the home's own and trusted keys). */
  operatorKeys?: string[]
  /** `--gate FILE`: an admin-owned gate's file (its keys and presence replace the home's). */
  gate?: string
  warn(line: string): void
}

/** The registered project whose folder holds `cwd` (the deepest one), or null. */
function projectOf(root: Root, cwd: string | null): string | null {
  if (!cwd) return null
  const dir = resolve(cwd)
  const hits = root
    .get('projects')
    .list()
    .filter((p) => dir === p.path || dir.startsWith(p.path.endsWith(sep) ? p.path : p.path + sep))
  return hits.sort((a, b) => b.path.length - a.path.length)[0]?.name ?? null
}

/** The root's state DB, or null when there is none or it cannot be read (warned). */
function stateOf(root: Root, warn: (line: string) => void): Db | null {
  try {
    return root.get('state')
  } catch (err) {
    if (!(err instanceof NoStateDb)) warn(`muster approve-hook: cannot read Muster's state DB (${(err as Error).message}); no allowlist`)
    return null
  }
}

/** Opens the hook's context on a root opened with `state: 'existing'`; `close` releases the hub (the root closes the DB). */
export async function openHookContext(root: Root, o: HookEnvOptions): Promise<{ ctx: HookContext; close(): Promise<void> }> {
  const home = root.options.home
  const db = stateOf(root, o.warn)
  const presence = loadHookPresence(home, o.gate, o.warn)
  const installed = new DecisionTrust(presence.operatorKeys ?? (o.operatorKeys?.length ? o.operatorKeys : trustedKeyIds(home)))
  // the keys the gate was installed with, less those the trust ledger revoked or rotated away
  let trust = installed
  let rules: AllowlistStore | null = null
  let operator: string | null = null
  try {
    if (db && AllowlistStore.available(db)) {
      const store = new AllowlistStore(db, { trust: () => installed })
      const ledger = store.checkLedger()
      if (!ledger.ok) o.warn(`muster approve-hook: the trust ledger cannot be trusted (${ledger.why}); no allowlist rule answers`)
      trust = new DecisionTrust(ledger.keys)
      rules = new AllowlistStore(db, { trust: () => installed }, ledger)
    }
    operator = db ? root.get('operatorId')() : null
  } catch (err) {
    o.warn(`muster approve-hook: cannot read Muster's state DB (${(err as Error).message}); no allowlist`)
  }
  // the hub every entry would choose for this home (named, registered default, environment, MemPalace's default)
  const { hub } = await openChosenHub(
    db ? new HubRegistry(db) : null,
    { hub: o.hub, palace: o.palace },
    { env: o.env, cwd: o.cwd },
    { lockTimeoutMs: o.lockTimeoutMs ?? HOOK_LOCK_TIMEOUT_MS, home, callTimeoutMs: HOOK_CALL_TIMEOUT_MS }
  )
  const ctx: HookContext = {
    hub,
    rules,
    trust,
    presence,
    operator: operator ?? BROADCAST,
    projectFor: (cwd) => {
      try {
        return db ? projectOf(root, cwd) : null
      } catch {
        return null
      }
    },
    warn: o.warn
  }
  return {
    ctx,
    async close() {
      if ('close' in hub) await hub.close()
    }
  }
}
