/**
 * Builds what `muster approve-hook` runs against, with as little as possible: Muster's state DB
 * opened directly (no migrations, never created here) for the allowlist, the operator's id, the
 * registered projects and hub names; and one `Hub` for the selected palace or registered hub.
 * A missing or older state DB simply means no allowlist and requests addressed to `'*'`.
 */
import { existsSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import { BROADCAST } from '../../shared/contract/hub-vocabulary'
import { STATE_DB_FILE } from '../fleet'
import { resolvePalace, type PalaceEnv } from '../hub'
import { openHub, type AppendAndWait, registeredHub } from '../hub/open'
import { openDatabase, type Db } from '../sqlite'
import { AllowlistStore } from './allowlist-store'
import type { HookContext } from './approve-hook'
import { DecisionTrust } from './decision-trust'
import { trustedKeyIds } from './operator-keys'

/** How long the hook waits for a locked hub before it answers `ask` (a locked hub for longer is not normal). */
export const HOOK_LOCK_TIMEOUT_MS = 5_000
/** How long it waits for Muster's state DB (the app may be writing it). */
const STATE_BUSY_MS = 2_000

/** Where the hook looks. */
export interface HookEnvOptions {
  /** Muster's home (state DB). */
  home: string
  /** `--palace P`. */
  palace?: string
  /** `--hub NAME_OR_URL`. */
  hub?: string
  env: PalaceEnv
  cwd: string
  lockTimeoutMs?: number
  /** `--operator-keys`: the keys the hook was installed with (default: the home's own and trusted keys). */
  operatorKeys?: string[]
  warn(line: string): void
}

/** The operator's id from the state DB settings, or null. */
function operatorOf(db: Db): string | null {
  const row = db.prepare("SELECT value_json FROM settings WHERE key = 'operatorId'").get() as { value_json: string } | undefined
  try {
    const id: unknown = row ? JSON.parse(row.value_json) : null
    return typeof id === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : null
  } catch {
    return null
  }
}

/** The registered project whose folder holds `cwd` (the deepest one), or null. */
function projectOf(db: Db | null, cwd: string | null): string | null {
  if (!db || !cwd) return null
  const dir = resolve(cwd)
  const rows = db.prepare('SELECT name, path FROM projects').all() as { name: string; path: string }[]
  const hits = rows.filter((p) => dir === p.path || dir.startsWith(p.path.endsWith(sep) ? p.path : p.path + sep))
  return hits.sort((a, b) => b.path.length - a.path.length)[0]?.name ?? null
}

/** Opens the state DB if it exists (read and hit counts only; never created or migrated here). */
function openState(home: string, warn: (line: string) => void): Db | null {
  const file = join(home, STATE_DB_FILE)
  if (!existsSync(file)) return null
  try {
    const db = openDatabase(file, { mustExist: true, busyTimeoutMs: STATE_BUSY_MS })
    db.pragma('synchronous = NORMAL') // as the app writes it (WAL): a hit count needs no fsync of its own
    return db
  } catch (err) {
    warn(`muster approve-hook: cannot read Muster's state DB ${file} (${(err as Error).message}); no allowlist`)
    return null
  }
}

/** Opens the hook's context; `close` releases the hub and the DB. */
export async function openHookContext(o: HookEnvOptions): Promise<{ ctx: HookContext; close(): Promise<void> }> {
  const db = openState(o.home, o.warn)
  const trust = new DecisionTrust(o.operatorKeys?.length ? o.operatorKeys : trustedKeyIds(o.home))
  let rules: AllowlistStore | null = null
  let operator: string | null = null
  let hub: AppendAndWait | { unreachable: string }
  try {
    if (db && AllowlistStore.available(db)) rules = new AllowlistStore(db, { trust: () => trust })
    operator = db ? operatorOf(db) : null
  } catch (err) {
    o.warn(`muster approve-hook: cannot read Muster's state DB (${(err as Error).message}); no allowlist`)
  }
  try {
    const { location, token } = o.hub
      ? await registeredHub(db, o.home, o.hub)
      : { location: resolvePalace(o.palace, o.env, o.cwd).palace, token: null }
    hub = await openHub(location, { lockTimeoutMs: o.lockTimeoutMs ?? HOOK_LOCK_TIMEOUT_MS, home: o.home, token })
  } catch (err) {
    hub = { unreachable: (err as Error).message }
  }
  const ctx: HookContext = {
    hub,
    rules,
    trust,
    operator: operator ?? BROADCAST,
    projectFor: (cwd) => {
      try {
        return projectOf(db, cwd)
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
      db?.close()
    }
  }
}
