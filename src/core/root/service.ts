/**
 * The one object that implements `shared/api.ts` on top of the core modules. Every binding
 * (Electron IPC, HTTP + SSE, CLI, tests) calls `service.call(method, input)`; input is validated
 * here against the contract, so no binding can skip validation. Handlers live in `handlers/`,
 * one file per part of the contract.
 */
import { ApiError } from '../../shared/api-error'
import { parseInput, type MethodName, type MethodOutput, type ProjectStatus, type PushedEvent } from '../../shared/api'
import { readProjectStatus, FleetWatcher, STATE_DB_FILE, stateWriteError, unwritable } from '../fleet'
import { join } from 'node:path'
import { RoleCache, stopMuseWork } from '../muse'
import {
  approvalHandlers,
  connectHandlers,
  presenceHandlers,
  pushHandlers,
  fleetHandlers,
  hubHandlers,
  museHandlers,
  needsHandlers,
  gatesHandlers,
  invokeHandlers,
  notesHandlers,
  patchHandlers,
  usageHandlers
} from '../handlers'
import { NeedsService } from '../needs'
import type { ServiceContext } from '../service-context'
import type { Root } from './root-types'
import type { MusterService, ServiceOptions } from '../service-types'

/** How often a watching service records the hook's spooled allowlisted calls. */
const SPOOL_DRAIN_MS = 1000
/** How often a watching service reads what the harnesses appended to their records. */
const USAGE_REFRESH_MS = 1000

/** Any handler; inputs are validated against the contract before the call. */
type AnyHandler = (input: never) => unknown

/** Builds the service on a root's parts; while the root watches, registered projects are watched. `close` closes the root. */
export async function buildService(root: Root): Promise<MusterService> {
  const watching = root.options.watch ?? false
  const opts: ServiceOptions = { ...root.options, transport: root.options.transport ?? 'http', watch: watching }
  const db = root.get('state')
  const registry = root.get('projects')
  const settings = await root.get('settings')
  const fleetListeners: ((project: string, paths: string[]) => void)[] = []
  /** Parsed project cards, dropped when the watcher reports a change (only while watching). */
  const statusCache = new Map<string, Promise<ProjectStatus>>()
  /** Role-file digests for every view, persisted in the state DB (parse cache). */
  const roles = new RoleCache({ db })
  root.onClose(() => roles.flush())

  let needs: NeedsService | null = null
  const emit = (event: PushedEvent): void => root.emit(event)
  // the needs-you queue sees every pushed event first (the root's first listener)
  root.onEvent((event) => needs?.onEvent(event))

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
  root.onClose(() => watcher?.close())
  const hubs = await root.get('hubs')
  const patches = await root.get('patches')
  const keys = await root.get('keys')
  const presence = await root.get('presence')
  const pending = await root.get('approvals')
  const gates = await root.get('gates')
  const usage = await root.get('usage')
  const needsService = new NeedsService({
    hubs,
    async approvals(sel) {
      const r = await pending.list(sel)
      const failed = r.hubs.find((h) => !h.ok)
      if (failed) throw new Error(failed.error ?? 'the approvals cannot be read')
      // a snoozed request ("Not now") stays out of the queue until its time
      return r.pending.filter((p) => !p.snoozed_until)
    },
    patches: async (sel) => (await patches.list(sel)).patches,
    directives: async () => (await dispatch('muse.directives', { state: 'pending' })).directives,
    kept: async () => (await dispatch('muse.kept', {})).kept,
    operator: () => settings.get().operatorId,
    operatorRoles: () => settings.get().operatorRoles,
    gates: () => gates.report().gates,
    budgets: async () => usage.budgets(),
    emit: watching ? emit : undefined,
    home: opts.home
  })
  needs = needsService
  root.onClose(() => needsService.close())
  // new needs-you items go to the subscribed phones (push is built the first time there are any)
  if (watching)
    root.onEvent((event) => {
      if (event.name === 'needs.changed' && event.payload.added.length)
        void root.get('push').then(
          (p) => p.notify(event.payload.added),
          () => undefined
        )
    })
  // gate health: checked a little after start, then every few minutes, off the main thread
  if (watching) {
    gates.onChange((report) => emit({ name: 'gates.changed', payload: { at: report.at ?? new Date().toISOString() } }))
    gates.start()
  }

  // the allowlisted calls the hook's fast path left in the home's spool: recorded before the
  // approvals are read, and every second while the service watches (the app, `muster serve`)
  const spool = await root.get('spool')
  if (watching) {
    void spool.drain()
    const timer = setInterval(() => void spool.drain(), SPOOL_DRAIN_MS)
    timer.unref()
    root.onClose(() => {
      clearInterval(timer)
      return spool.idle()
    })
  }

  // usage: the gate file is written at once; a watching service reads the harnesses' records
  // every second (new files every 10 s) and says when anything changed
  usage.writeGate()
  if (watching) {
    let stopped = false
    let pass: Promise<unknown> = Promise.resolve()
    const tick = (): void => {
      pass = usage.refresh().then(
        (changed) => changed && !stopped && emit({ name: 'usage.changed', payload: { at: new Date().toISOString() } }),
        () => undefined
      )
    }
    tick()
    const timer = setInterval(tick, USAGE_REFRESH_MS)
    timer.unref()
    root.onClose(async () => {
      stopped = true
      clearInterval(timer)
      await pass
    })
  }

  const ctx: ServiceContext = {
    opts,
    db,
    registry,
    settings,
    hubs,
    patches,
    needs: needsService,
    gates,
    keys,
    presence,
    approvals: pending,
    usage,
    push: () => root.get('push'),
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
      root.onClose(fn)
    },
    drainHookJobs: () => spool.drain(),
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
    ...needsHandlers(ctx),
    ...presenceHandlers(ctx),
    ...pushHandlers(ctx),
    ...gatesHandlers(ctx),
    ...connectHandlers(ctx),
    ...usageHandlers(ctx)
  }

  async function dispatch<M extends MethodName>(method: M, input: unknown): Promise<MethodOutput<M>> {
    const handler = Object.prototype.hasOwnProperty.call(handlers, method) ? handlers[method] : undefined
    if (!handler) throw new ApiError(`unknown method '${String(method)}'`, 'invalid_input')
    let out: MethodOutput<M>
    try {
      out = (await (handler as (i: unknown) => unknown)(parseInput(method, input))) as MethodOutput<M>
    } catch (err) {
      throw stateError(err, String(method)) ?? err
    }
    needs?.afterCall(method)
    return out
  }

  /** A write the state DB refused (read-only home, full disk) as an error naming the file and why. */
  function stateError(err: unknown, method: string): ApiError | null {
    if (err instanceof ApiError || !String((err as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_')) return null
    const readOnly = stateWriteError(ctx.db, `run ${method}`)
    if (readOnly && String((err as { code: string }).code).startsWith('SQLITE_READONLY')) return new ApiError(readOnly.message, 'forbidden')
    const why = unwritable(err)
    return why
      ? new ApiError(
          `cannot run ${method}: Muster's state DB ${join(ctx.opts.home, STATE_DB_FILE)} cannot be written (${why})`,
          'forbidden'
        )
      : null
  }

  return {
    call: dispatch,
    subscribe: (listener) => root.onEvent(listener),
    close: async () => {
      // edits and digests in progress stop at once (a long write into a huge role file too), so a
      // stopping process ends promptly with nothing half-written (muse/stop-work.ts)
      await stopMuseWork()
      await root.close()
    }
  }
}
