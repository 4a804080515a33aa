/**
 * The one object that implements `shared/api.ts` on top of the core modules. Every binding
 * (Electron IPC, HTTP + SSE, CLI, tests) calls `service.call(method, input)`; input is validated
 * here against the contract, so no binding can skip validation.
 */
import { join } from 'node:path'
import {
  parseInput,
  type MethodName,
  type MethodOutput,
  type ProjectStatus,
  type PushedEvent,
  type methods
} from '../shared/api'
import type { z } from 'zod'
import { createDemoFleet } from './fleet/demo'
import { readProjectStatus } from './fleet/project-status'
import { ProjectRegistry } from './fleet/registry'
import { SettingsStore } from './fleet/settings'
import { openStateDb } from './fleet/state-db'
import { FleetWatcher } from './fleet/watcher'
import type { MusterService, ServiceOptions } from './service-types'
import { ApiError } from '../shared/api'
import { MUSTER_VERSION } from './version'

type Handlers = {
  [M in MethodName]: (input: z.infer<(typeof methods)[M]['input']>) => Promise<MethodOutput<M>> | MethodOutput<M>
}

/** Creates the service: opens the state DB in `opts.home` and starts watching registered projects. */
export async function createService(opts: ServiceOptions): Promise<MusterService> {
  const db = openStateDb(opts.home)
  const registry = new ProjectRegistry(db)
  const settings = new SettingsStore(db)
  const listeners = new Set<(event: PushedEvent) => void>()
  /** Parsed project cards, dropped when the watcher reports a change (only while watching). */
  const statusCache = new Map<string, Promise<ProjectStatus>>()
  const watching = opts.watch ?? true

  const emit = (event: PushedEvent): void => {
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
          emit({ name: 'fleet.changed', payload: { project, paths, at: new Date().toISOString() } })
        }
      })
    : null

  const projectsChanged = (): void => {
    statusCache.clear()
    watcher?.sync(registry.list())
    emit({ name: 'projects.changed', payload: { at: new Date().toISOString() } })
  }
  watcher?.sync(registry.list())

  const statusOf = (project: ReturnType<ProjectRegistry['get']>): Promise<ProjectStatus> => {
    if (!watching) return readProjectStatus(project)
    let cached = statusCache.get(project.name)
    if (!cached) {
      cached = readProjectStatus(project)
      statusCache.set(project.name, cached)
      cached.catch(() => statusCache.delete(project.name))
    }
    return cached
  }

  const handlers: Handlers = {
    'app.info': () => ({
      version: MUSTER_VERSION,
      home: opts.home,
      transport: opts.transport,
      projectCount: registry.list().length
    }),
    'projects.list': () => registry.list(),
    'projects.add': async ({ path, name }) => {
      const project = await registry.add(path, name)
      projectsChanged()
      return project
    },
    'projects.remove': ({ name }) => {
      const removed = registry.remove(name)
      projectsChanged()
      return { removed: removed.name }
    },
    'projects.scan': async ({ dir }) => {
      const result = await registry.scan(dir)
      if (result.added.length > 0) projectsChanged()
      return result
    },
    'fleet.status': async ({ project }) => {
      const projects = project ? [registry.get(project)] : registry.list()
      return Promise.all(projects.map(statusOf))
    },
    'demo.create': async ({ dir }) => {
      const target = dir ?? join(opts.home, 'demo')
      const demo = await createDemoFleet(target)
      const known = new Map(registry.list().map((p) => [p.path, p]))
      const projects = []
      for (const p of demo.projects) {
        const existing = [...known.values()].find((k) => k.path === p.path || k.name === p.name)
        projects.push(existing ?? (await registry.add(p.path, p.name)))
      }
      projectsChanged()
      return { dir: demo.dir, projects, hub: demo.hub }
    },
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const next = settings.update(patch)
      emit({ name: 'settings.changed', payload: next })
      return next
    }
  }

  return {
    async call<M extends MethodName>(method: M, input: unknown): Promise<MethodOutput<M>> {
      const handler = handlers[method] as ((i: unknown) => Promise<MethodOutput<M>> | MethodOutput<M>) | undefined
      if (!handler) throw new ApiError(`unknown method '${String(method)}'`, 'invalid_input')
      return handler(parseInput(method, input))
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      listeners.clear()
      await watcher?.close()
      db.close()
    }
  }
}
