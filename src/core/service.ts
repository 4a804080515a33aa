/**
 * The one object that implements `shared/api.ts` on top of the core modules. Every binding
 * (Electron IPC, HTTP + SSE, CLI, tests) calls `service.call(method, input)`; input is validated
 * here against the contract, so no binding can skip validation. Handlers live in `handlers/`,
 * one file per part of the contract.
 */
import { ApiError } from '../shared/api-error'
import { parseInput, type MethodName, type MethodOutput, type ProjectStatus, type PushedEvent } from '../shared/api'
import { readProjectStatus, ProjectRegistry, SettingsStore, openStateDb, FleetWatcher } from './fleet'
import { RoleCache } from './muse'
import {
  approvalHandlers,
  fleetHandlers,
  hubHandlers,
  museHandlers,
  needsHandlers,
  invokeHandlers,
  notesHandlers,
  patchHandlers
} from './handlers'
import { HubService } from './hub'
import { PatchService } from './patches'
import { AllowlistStore, ApprovalsService, OperatorKeys } from './approvals'
import { NeedsService } from './needs'
import type { ServiceContext } from './service-context'
import type { MusterService, ServiceOptions } from './service-types'

/** Any handler; inputs are validated against the contract before the call. */
type AnyHandler = (input: never) => unknown

/** Creates the service: opens the state DB in `opts.home` and starts watching registered projects. */
export async function createService(opts: ServiceOptions): Promise<MusterService> {
  const db = openStateDb(opts.home)
  const registry = new ProjectRegistry(db)
  const settings = new SettingsStore(db)
  const listeners = new Set<(event: PushedEvent) => void>()
  const closers: (() => void | Promise<void>)[] = []
  const fleetListeners: ((project: string, paths: string[]) => void)[] = []
  /** Parsed project cards, dropped when the watcher reports a change (only while watching). */
  const statusCache = new Map<string, Promise<ProjectStatus>>()
  /** Role-file digests for every view, persisted in the state DB (parse cache). */
  const roles = new RoleCache({ db })
  closers.push(() => roles.flush())
  const watching = opts.watch ?? true

  let needs: NeedsService | null = null
  const emit = (event: PushedEvent): void => {
    needs?.onEvent(event)
    for (const l of listeners) {
      try {
        l(event)
      } catch {
        /* a faulty listener must not break the others */
      }
    }
  }

  const watcher = watching
    ? new FleetWatcher({
        debounceMs: opts.debounceMs ?? 60,
        onChange: ({ project, paths }) => {
          statusCache.delete(project)
          for (const l of fleetListeners) l(project, paths)
          emit({ name: 'fleet.changed', payload: { project, paths, at: new Date().toISOString() } })
        }
      })
    : null
  watcher?.sync(registry.list())
  const hubs = new HubService({
    state: db,
    projects: registry,
    operator: () => settings.get().operatorId,
    emit: watching ? emit : undefined,
    lockTimeoutMs: opts.hubLockTimeoutMs,
    home: opts.home
  })
  closers.push(() => hubs.close())
  const patches = new PatchService({ hubs, db, projects: registry, operator: () => settings.get().operatorId, emit })
  closers.push(() => patches.close())
  const keys = new OperatorKeys(opts.home, opts.keyProtector ?? null)
  try {
    keys.ensure() // every operator home has its key before a hook is installed or a decision made
    keys.protect() // with a keychain (the desktop app), a plain key is wrapped into it
  } catch {
    /* a read-only home: made on the first decision, which then says why it cannot */
  }
  const ruleKeys = { trust: () => keys.decisionTrust(), signer: () => keys.signer() }
  const pending = new ApprovalsService({
    hubs,
    rules: new AllowlistStore(db, ruleKeys),
    operator: () => settings.get().operatorId,
    keys: ruleKeys
  })
  const needsService = new NeedsService({
    hubs,
    async approvals(sel) {
      const r = await pending.list(sel)
      const failed = r.hubs.find((h) => !h.ok)
      if (failed) throw new Error(failed.error ?? 'the approvals cannot be read')
      return r.pending
    },
    patches: async (sel) => (await patches.list(sel)).patches,
    directives: async () => (await dispatch('muse.directives', { state: 'pending' })).directives,
    operator: () => settings.get().operatorId,
    operatorRoles: () => settings.get().operatorRoles,
    emit: watching ? emit : undefined,
    home: opts.home
  })
  needs = needsService
  closers.push(() => needsService.close())

  const ctx: ServiceContext = {
    opts,
    db,
    registry,
    settings,
    hubs,
    patches,
    needs: needsService,
    keys,
    emit,
    roles,
    projectStatus(name) {
      const project = registry.get(name)
      if (!watching) return readProjectStatus(project, roles)
      let cached = statusCache.get(project.name)
      if (!cached) {
        cached = readProjectStatus(project, roles)
        statusCache.set(project.name, cached)
        cached.catch(() => statusCache.delete(project.name))
      }
      return cached
    },
    projectsChanged() {
      statusCache.clear()
      watcher?.sync(registry.list())
      emit({ name: 'projects.changed', payload: { at: new Date().toISOString() } })
    },
    onFleetChange(listener) {
      fleetListeners.push(listener)
    },
    onClose(fn) {
      closers.push(fn)
    },
    call: (method, input) => dispatch(method, input)
  }

  const handlers: Record<string, AnyHandler> = {
    ...fleetHandlers(ctx),
    ...museHandlers(ctx),
    ...hubHandlers(ctx),
    ...notesHandlers(ctx),
    ...invokeHandlers(ctx),
    ...patchHandlers(ctx),
    ...approvalHandlers(ctx),
    ...needsHandlers(ctx)
  }

  async function dispatch<M extends MethodName>(method: M, input: unknown): Promise<MethodOutput<M>> {
    const handler = Object.prototype.hasOwnProperty.call(handlers, method) ? handlers[method] : undefined
    if (!handler) throw new ApiError(`unknown method '${String(method)}'`, 'invalid_input')
    const out = (await (handler as (i: unknown) => unknown)(parseInput(method, input))) as MethodOutput<M>
    needs?.afterCall(method)
    return out
  }

  return {
    call: dispatch,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      listeners.clear()
      for (const fn of closers.reverse()) await fn()
      await watcher?.close()
      db.close()
    }
  }
}
