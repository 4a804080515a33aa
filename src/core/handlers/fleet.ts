/**
 * Handlers of the fleet methods: app info, registry, overview status, demo, settings.
 */
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { fleetMethods, Project } from '../../shared/api'
import { AllowlistStore } from '../approvals'
import { createDemoFleet, DEMO_DYA_TEST, addDemoRule } from '../demo'
import { fleetStatus } from '../fleet'
import type { HandlersFor, ServiceContext } from '../service-context'
import { MUSTER_VERSION } from '../version'

/** The fleet handlers bound to a service context. */
export function fleetHandlers(ctx: ServiceContext): HandlersFor<typeof fleetMethods> {
  const { registry, settings } = ctx
  return {
    'app.info': () => ({
      version: MUSTER_VERSION,
      home: ctx.opts.home,
      transport: ctx.opts.transport,
      projectCount: registry.list().length
    }),
    'projects.list': () => registry.list(),
    'projects.add': async ({ path, name }) => {
      const project = await registry.add(path, name)
      ctx.projectsChanged()
      return project
    },
    'projects.setKey': ({ name, key }) => {
      const project = registry.setKey(name, key)
      ctx.projectsChanged()
      return project
    },
    'projects.remove': ({ name }) => {
      const removed = registry.remove(name)
      ctx.projectsChanged()
      return { removed: removed.name }
    },
    'projects.scan': async ({ dir }) => {
      const result = await registry.scan(dir)
      if (result.added.length > 0) ctx.projectsChanged()
      return result
    },
    'fleet.status': ({ project }) => fleetStatus(registry, ctx.roles, (p) => ctx.projectStatus(p.name), project),
    'demo.create': async ({ dir }) => {
      const target = dir ?? join(ctx.opts.home, 'demo')
      let demo
      try {
        demo = await createDemoFleet(target, { signer: ctx.keys.signer() })
      } catch (err) {
        // A folder that cannot be created keeps its own code; a foreign non-empty folder is a conflict.
        throw err instanceof ApiError ? err : new ApiError((err as Error).message, 'conflict')
      }
      const known = registry.list()
      const projects: Project[] = []
      for (const p of demo.projects) {
        const existing = known.find((k) => k.path === p.path || k.name === p.name)
        projects.push(existing ?? (await registry.add(p.path, p.name)))
      }
      // the demo's clean patch is tested on Apply: dya's test command, unless the operator set one
      const dya = projects.find((p) => p.path === demo.projects.find((d) => d.name === 'dya')?.path)
      if (dya && ctx.patches.settings(dya.name).test_command === null) ctx.patches.setSettings(dya.name, DEMO_DYA_TEST)
      await ctx.call('hubs.add', { palace: demo.hub, name: 'demo' })
      addDemoRule(new AllowlistStore(ctx.db, { trust: () => ctx.keys.decisionTrust(), signer: () => ctx.keys.signer() }))
      ctx.projectsChanged()
      return { dir: demo.dir, projects, hub: demo.hub }
    },
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const next = settings.update(patch)
      ctx.emit({ name: 'settings.changed', payload: next })
      return next
    }
  }
}
