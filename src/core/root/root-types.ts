/**
 * The composition root's types (`root.ts` builds them): what a root is opened with, its parts by
 * name, and the root itself. A file of its own so the parts' modules, which a root loads on first
 * use, name the root they are built on without importing the module that loads them.
 */
import type { PushedEvent } from '../../shared/api'
import type { AllowlistStore, ApprovalsService, GateMonitor, KeyProtector, OperatorKeys } from '../approvals'
import type { ProjectRegistry, SettingsStore } from '../fleet'
import type { HubService, PalaceEnv } from '../hub'
import type { PatchService } from '../patches'
import type { PresenceService } from '../presence'
import type { PushService } from '../push'
import type { MusterService, Transport } from '../service-types'
import type { Db } from '../sqlite'
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
  /** Phone push: the home's VAPID key, the subscribed devices, sending new needs-you items. */
  push: Promise<PushService>
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

/** Records a home's spool on demand, one drain at a time (`hookJobDrainer`). */
export interface HookJobDrainer {
  /** Drains now (a call during a drain waits for it, then drains again). */
  drain(): Promise<void>
  /** Settles once the drain under way (if any) has ended. */
  idle(): Promise<void>
}

/** `openRoot`, handed to code that opens a root of its own without importing the module that loads it. */
export type OpenRoot = (opts: RootOptions) => Root
