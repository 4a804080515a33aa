/**
 * The composition root: the one place that builds Muster's core for an entry (Electron main,
 * `muster serve`, every CLI command, `approve-hook`, `muster mcp`, `muster status`). An entry opens
 * a root on Muster's home and asks it for the parts it needs; each part is built on first `get`,
 * from the parts it needs in turn, and only then. Light parts (the state DB and the stores read by
 * the hot paths) come back at once; the others as a promise, their modules loaded on first use
 * (`./hub-parts.ts`, `./parts.ts`), so `muster status` and `approve-hook` never load the service, zod or the remote
 * hub client. `close` closes what was built, newest first.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { PushedEvent } from '../../shared/api'
import type { AllowlistStore } from '../approvals'
import { ProjectRegistry, STATE_DB_FILE, openStateDb, storedOperatorId } from '../fleet'
import type { HubService, PalaceEnv } from '../hub'
import type { PatchService } from '../patches'
import type { PresenceService } from '../presence'
import type { ApprovalsService, GateMonitor, KeyProtector, OperatorKeys } from '../approvals'
import type { SettingsStore } from '../fleet'
import type { MusterService, Transport } from '../service-types'
import { openDatabase, type Db } from '../sqlite'
import type { HookJobDrainer } from './drain-hook-jobs'
import type { UsageService } from '../usage'

/** How the state DB is opened: created and migrated, or only as it is (the hot paths never create or migrate it). */
export type StateMode = 'create' | 'existing' | 'read-only'

/** What a root is opened with. */
export interface RootOptions {
  /** Muster's home folder (state DB, hub tokens and mirrors). */
  home: string
  /** Environment for MemPalace's palace resolution (default: none). */
  env?: PalaceEnv
  /** Default `create`; `existing`/`read-only` make `state` throw NoStateDb when there is none. */
  state?: StateMode
  /** Watch registered projects and hubs and push events (default false: one-shot callers). */
  watch?: boolean
  /** How the service is reached; reported by `app.info` (default http). */
  transport?: Transport
  /** Debounce for file-change bursts in ms (default 60). */
  debounceMs?: number
  /** How long a hub read or write waits for a locked hub (default 10 s, MemPalace's). */
  hubLockTimeoutMs?: number
  /** Keeps the operator's signing key wrapped (the desktop app: the OS keychain via safeStorage). */
  keyProtector?: KeyProtector | null
}

/** Every part a root builds, by name: light ones directly, the rest as promises. */
export interface RootParts {
  /** Muster's state DB. */
  state: Db
  /** The project registry. */
  projects: ProjectRegistry
  /** The operator's agent id now (a stored one, else null). */
  operatorId: () => string | null
  /** The operator's signing key and the operator keys trusted here (made on first use). */
  keys: Promise<OperatorKeys>
  /** The allowlist of tool calls, its rules signed and checked with `keys`. */
  rules: Promise<AllowlistStore>
  /** Operator settings (validated by the contract). */
  settings: Promise<SettingsStore>
  /** Every MemPalace hub, local or remote. */
  hubs: Promise<HubService>
  /** Patches: inbox, verification, apply runs. */
  patches: Promise<PatchService>
  /** Pending tool calls and the operator's decisions. */
  approvals: Promise<ApprovalsService>
  /** The operator's authenticators and the home's presence policy. */
  presence: Promise<PresenceService>
  /** The contract's service (`shared/api.ts`) on these parts. */
  service: Promise<MusterService>
  /** Records the allowlisted calls the hook's fast path left in the home's spool (warnings on stderr). */
  spool: Promise<HookJobDrainer>
  /** Every installed gate's health, checked off the main thread and cached. */
  gates: Promise<GateMonitor>
  /** Token usage from the harnesses' records and the hubs, the price table, budgets. */
  usage: Promise<UsageService>
}

/** A part's name. */
export type PartName = keyof RootParts

/** Thrown by `get('state')` when the root may not create the state DB and there is none. */
export class NoStateDb extends Error {
  constructor(readonly file: string) {
    super(`there is no Muster state DB at ${file} yet`)
  }
}

/** An open root. */
export interface Root {
  readonly options: Readonly<RootOptions>
  /** The part `name`, built now if it was not yet. */
  get<K extends PartName>(name: K): RootParts[K]
  /** Sends a pushed event to every listener (parts that push: hubs while watching, patch runs). */
  emit(event: PushedEvent): void
  /** Listens to pushed events; returns the unsubscribe function. */
  onEvent(listener: (event: PushedEvent) => void): () => void
  /** Registers a cleanup to run at `close` (before the parts built earlier are closed). */
  onClose(fn: () => void | Promise<void>): void
  /** Closes every part built, newest first. */
  close(): Promise<void>
}

/** How long a hot path waits for the state DB while the app writes it. */
const STATE_BUSY_MS = 2_000

/** Opens the state DB as `mode` says. */
function openState(home: string, mode: StateMode): Db {
  if (mode === 'create') return openStateDb(home)
  const file = join(home, STATE_DB_FILE)
  if (!existsSync(file)) throw new NoStateDb(file)
  const db = openDatabase(file, { mustExist: true, readonly: mode === 'read-only', busyTimeoutMs: STATE_BUSY_MS })
  // as the app writes it (WAL): a hit count needs no fsync of its own
  if (mode === 'existing') db.pragma('synchronous = NORMAL')
  return db
}

/** Opens a root on `opts.home`; nothing is built until asked for. */
export function openRoot(opts: RootOptions): Root {
  const built = new Map<PartName, unknown>()
  const closers: (() => void | Promise<void>)[] = []
  const listeners = new Set<(event: PushedEvent) => void>()
  let closed = false

  const builders: { [K in PartName]: () => RootParts[K] } = {
    state: () => {
      const db = openState(opts.home, opts.state ?? 'create')
      closers.push(() => void db.close())
      return db
    },
    projects: () => new ProjectRegistry(root.get('state')),
    operatorId: () => {
      const db = root.get('state')
      return () => storedOperatorId(db)
    },
    keys: () => import('./parts').then((p) => p.keysPart(root)),
    rules: () => import('./parts').then((p) => p.rulesPart(root)),
    settings: () => import('./hub-parts').then((p) => p.settingsPart(root)),
    hubs: () => import('./hub-parts').then((p) => p.hubsPart(root)),
    patches: () => import('./hub-parts').then((p) => p.patchesPart(root)),
    approvals: () => import('./parts').then((p) => p.approvalsPart(root)),
    presence: () => import('./parts').then((p) => p.presencePart(root)),
    service: () => import('./parts').then((p) => p.servicePart(root)),
    gates: () => import('./parts').then((p) => p.gatesPart(root)),
    usage: () => import('./parts').then((p) => p.usagePart(root)),
    spool: () => import('./drain-hook-jobs').then((d) => d.hookJobDrainer(opts.home, (line) => void process.stderr.write(`${line}\n`)))
  }

  const root: Root = {
    options: opts,
    get(name) {
      if (closed) throw new Error('this Muster root is closed')
      if (built.has(name)) return built.get(name) as RootParts[typeof name]
      const part = builders[name]()
      built.set(name, part)
      // a part that failed to build is built again next time (a state DB created meanwhile)
      if (part instanceof Promise) part.catch(() => built.get(name) === part && built.delete(name))
      return part
    },
    emit(event) {
      for (const l of listeners) {
        try {
          l(event)
        } catch {
          /* a faulty listener must not break the others */
        }
      }
    },
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onClose(fn) {
      closers.push(fn)
    },
    async close() {
      if (closed) return
      // parts still being built are waited for, so what they open is closed too; with only light
      // parts built, closing is synchronous (`muster status` exits right after)
      const building = [...built.values()].filter((p) => p instanceof Promise)
      if (building.length) await Promise.allSettled(building)
      closed = true
      listeners.clear()
      for (const fn of closers.reverse()) {
        const done = fn()
        if (done) await done
      }
    }
  }
  return root
}
