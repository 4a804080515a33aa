/**
 * What every group of handlers gets from the service: the state DB, the registry, settings, the
 * event emitter, and hooks to invalidate cached project status. Handler groups live in
 * `core/handlers/` (one file per part of the contract) and are merged by `service.ts`.
 */
import type { z } from 'zod'
import type { MethodName, MethodInput, MethodOutput, ProjectStatus, PushedEvent } from '../shared/api'
import { type ProjectRegistry, type SettingsStore } from './fleet'
import type { RoleCache } from './muse'
import type { HubService } from './hub'
import type { NeedsService } from './needs'
import type { GateMonitor } from './approvals'
import type { PatchService } from './patches'
import type { ServiceOptions } from './service-types'
import type { Db } from './sqlite'
import type { ApprovalsService, OperatorKeys } from './approvals'
import type { PresenceService } from './presence'
import type { PushService } from './push'
import type { UsageService } from './usage'

/** Shared state and services for handler groups. */
export interface ServiceContext {
  opts: ServiceOptions
  db: Db
  registry: ProjectRegistry
  settings: SettingsStore
  /** MemPalace hubs: registry, hubs, live tails; every hub operation goes through it. */
  hubs: HubService
  /** Role-file digests through the parse cache (memory + state DB), shared by every view. */
  roles: RoleCache
  /** Patches: inbox, verification, apply runs, submit, audit. */
  patches: PatchService
  /** The needs-you queue (pushes `needs.changed` while the service watches). */
  needs: NeedsService
  /** Every installed gate's health, checked off the main thread and cached. */
  gates: GateMonitor
  /** The operator's signing key and the operator keys trusted here. */
  keys: OperatorKeys
  /** The operator's authenticators and the home's presence policy. */
  presence: PresenceService
  /** Pending tool calls and the operator's decisions. */
  approvals: ApprovalsService
  /** Phone push, built on first use (its library loads only then). */
  push(): Promise<PushService>
  /** Token usage, prices and budgets. */
  usage: UsageService
  /** Sends a pushed event to every subscriber. */
  emit(event: PushedEvent): void
  /** The parsed status of one project (cached while watching). */
  projectStatus(name: string): Promise<ProjectStatus>
  /** Call after the set of projects changed: re-syncs watchers, pushes `projects.changed`. */
  projectsChanged(): void
  /** Calls another contract method through the same validated path (handlers composing handlers). */
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>
  /** Listens to the fleet watcher's change bursts (only while the service watches). */
  onFleetChange(listener: (project: string, paths: string[]) => void): void
  /** Registers a cleanup to run when the service closes. */
  onClose(fn: () => void | Promise<void>): void
  /** Records the allowlisted calls the hook's fast path left in the home's spool (never rejects). */
  drainHookJobs(): Promise<void>
}

/** Handler functions for a group of contract methods (`{ name: { input, output } }`). */
export type HandlersFor<T extends Record<string, { input: z.ZodType; output: z.ZodType }>> = {
  [M in keyof T]: (input: z.infer<T[M]['input']>) => Promise<z.infer<T[M]['output']>> | z.infer<T[M]['output']>
}
