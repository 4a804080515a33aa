/**
 * What `muster approve-hook` runs against, from the composition root with as little as possible:
 * Muster's state DB as it is (never created or migrated here) for the allowlist, the operator's id
 * and the registered projects (their stores), and one hub port for the selected palace or
 * registered hub. A missing or older state DB simply means no allowlist and requests addressed to `'*'`.
 */
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import { AllowlistStore, DecisionTrust, trustedKeyIds, type HookContext } from '../approvals'
import { defaultCliHome, resolveHome, SettingsStore } from '../fleet'
import { HubRegistry, type PalaceEnv } from '../hub'
import { openChosenHub } from '../hub/open'
import { loadHookPresence } from '../presence'
import { BudgetGate, readGate, writeGate } from '../usage'
import type { Db } from '../sqlite'
import { openRoot } from './root'
import { NoStateDb, type Root } from './root-types'

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

/** The root's state DB, or null when there is none or it cannot be read (warned). */
function stateOf(root: Root, warn: (line: string) => void): Db | null {
  try {
    return root.get('state')
  } catch (err) {
    if (!(err instanceof NoStateDb)) warn(`muster approve-hook: cannot read Muster's state DB (${(err as Error).message}); no allowlist`)
    return null
  }
}

/**
 * The hook's budget check on the state DB (none without one): a crossed budget the operator signed
 * holds the call. The gate file the fast path reads is written again when it cannot be read (a
 * home from before budgets, a torn file), so the next allowlisted call is answered fast again.
 */
function budgetsOf(
  db: Db | null,
  trust: DecisionTrust,
  projectFor: (cwd: string | null) => string | null,
  warn: (line: string) => void
): Pick<HookContext, 'budgetHold'> {
  if (!db) return {}
  const file = db.name
  /** The gate file again when it cannot be read; a home that cannot be written keeps the fast path off. */
  const regate = (write: () => void): void => {
    try {
      if (readGate(file) === null) write()
    } catch (err) {
      warn(`muster approve-hook: the budgets' gate file could not be written (${(err as Error).message})`)
    }
  }
  let gate: BudgetGate
  try {
    if (!BudgetGate.available(db)) {
      regate(() => writeGate(file, []))
      return {}
    }
    gate = new BudgetGate({ db, keys: { trust: () => trust }, settings: new SettingsStore(db), projectFor })
  } catch (err) {
    const why = (err as Error).message
    // fail closed: no call is left to the allowlist while the budgets cannot be read
    return {
      budgetHold: () => {
        throw new Error(why)
      }
    }
  }
  regate(() => gate.writeGateFile())
  return { budgetHold: (call) => gate.holdFor(call) }
}

/**
 * A hook entry's home (`--home`, else the environment's), its root with the state DB as it is (a
 * hook never creates or migrates it) and its context; close `close` first, then the root.
 */
export async function openHookEntry(
  homeFlag: string | undefined,
  o: HookEnvOptions
): Promise<{ home: string; root: Root; ctx: HookContext; close(): Promise<void> }> {
  const home = resolveHome(homeFlag, o.env, defaultCliHome())
  const root = openRoot({ home, env: o.env, state: 'existing' })
  return { home, root, ...(await openHookContext(root, o)) }
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
  const projectFor = (cwd: string | null): string | null => {
    try {
      return db ? root.get('projects').holding(cwd) : null
    } catch {
      return null
    }
  }
  const ctx: HookContext = {
    hub,
    rules,
    trust,
    presence,
    operator: operator ?? BROADCAST,
    projectFor,
    ...budgetsOf(db, trust, projectFor, o.warn),
    warn: o.warn
  }
  return {
    ctx,
    async close() {
      if ('close' in hub) await hub.close()
    }
  }
}
