/**
 * Handlers of the MUSE methods (directives, role files, memory, lint). Role files are read
 * through the service's RoleCache (the parse cache, in memory and in the state DB); the memory
 * index is synced lazily and incrementally (stat-based) before each search.
 */
import { promises as fs } from 'node:fs'
import { ApiError } from '../../shared/api-error'
import type { museMethods, Project, RoleSummary } from '../../shared/api'
import { queryDirectives, queryNotices } from '../../shared/directive-query'
import {
  collectDirectives,
  normaliseTarget,
  resolveTarget,
  canonicalTarget,
  type FleetView,
  readFleetView,
  scanProject,
  detectHub,
  HUB_SETTING,
  asMarkedHub,
  lintFleet,
  appendMemory,
  searchMemory,
  syncMemoryIndex,
  editorCommand,
  launchEditor,
  parseRole,
  type RoleDigest,
  pickup,
  pendingAndTodos,
  sizeLevel,
  throughSwaps,
  roleFile,
  send,
  SendKeys,
  keptEdits,
  mergeKept,
  discardKept
} from '../muse'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The MUSE handlers bound to a service context. */
export function museHandlers(ctx: ServiceContext): HandlersFor<typeof museMethods> {
  const cache = ctx.roles
  const markedHub = (): string | null => asMarkedHub(ctx.settings.internal(HUB_SETTING))
  const fleet = (): Promise<FleetView> => readFleetView(ctx.registry.list(), cache, markedHub())
  const sendKeys = new SendKeys(ctx.opts.home)
  /** Projects whose memory index is known to match the files (kept only while watching). */
  const memoryInSync = new Set<string>()
  ctx.onFleetChange((project) => memoryInSync.delete(project))
  const written = (project: string, files: string[]): void => {
    memoryInSync.delete(project)
    ctx.emit({ name: 'muse.written', payload: { project, files, at: new Date().toISOString() } })
  }
  const summary = (r: RoleDigest): RoleSummary => ({
    role: r.role,
    file: r.file,
    l0: r.l0,
    lines: r.lineCount,
    sizeLevel: sizeLevel(r.lineCount),
    ...pendingAndTodos(r)
  })

  return {
    'muse.roles': async ({ project }) => {
      const p = ctx.registry.get(project)
      await assertExists(p)
      const sp = await scanProject(p, cache)
      cache.flush()
      return { project: p.name, roles: sp.roles.map(summary) }
    },
    'muse.openRole': async ({ project, role, line }) => {
      const { path } = await roleFile(ctx.registry.get(project), role)
      const cmd = editorCommand(path, line ?? 1, process.env, process.platform)
      await launchEditor(cmd)
      return { file: path, command: cmd.command }
    },
    'muse.role': async ({ project, role }) => {
      const p = ctx.registry.get(project)
      const rf = await roleFile(p, role)
      const text = await throughSwaps(() => fs.readFile(rf.path, 'utf8'))
      const parsed = parseRole(rf.file, text)
      return {
        ...summary(parsed),
        project: p.name,
        text,
        sections: parsed.sections,
        todos: parsed.todos,
        directives: parsed.directives,
        notices: parsed.notices
      }
    },
    'muse.directives': async ({ state, project, role, target, text }) => {
      if (project) ctx.registry.get(project)
      const view = await fleet()
      let wanted: string | undefined
      if (target) {
        const t = normaliseTarget(target)
        if (!t) throw new ApiError(`invalid target '${target}': use ROLE, PROJECT/ROLE or ALL`, 'invalid_input')
        wanted = canonicalTarget(resolveTarget(t, view), t)
      }
      const query = { state, project, role, target: wanted, text }
      const notices = view.projects.flatMap((sp) => sp.roles.flatMap((r) => r.notices.map((n) => ({ ...n, project: sp.project.name }))))
      return { hub: view.hub, directives: queryDirectives(collectDirectives(view), query), notices: queryNotices(notices, query) }
    },
    'muse.pickup': async ({ project, id, target }) => {
      ctx.registry.get(project)
      const result = await pickup(await fleet(), { project, id, target, now: new Date() })
      if (result.outcome !== 'already-done') written(project, [result.receiptFile, result.sourceFile])
      return result
    },
    'muse.send': async (input) => {
      const p = ctx.registry.get(input.project)
      const result = await send(await fleet(), {
        project: p,
        from: input.from,
        to: input.to,
        title: input.title,
        body: input.body,
        id: input.id,
        key: input.key,
        keys: sendKeys
      })
      written(p.name, [result.file])
      return result
    },
    'muse.memoryWrite': async ({ project, section, text }) => {
      const p = ctx.registry.get(project)
      await assertExists(p)
      const result = await appendMemory(p.path, section, text, new Date())
      written(p.name, [result.file])
      return result
    },
    'muse.memorySearch': async ({ project, query, scope, limit }) => {
      const projects = project ? [ctx.registry.get(project)] : ctx.registry.list()
      for (const p of projects) {
        if (memoryInSync.has(p.name)) continue
        await syncMemoryIndex(ctx.db, p)
        if (ctx.opts.watch ?? true) memoryInSync.add(p.name)
      }
      return searchMemory(ctx.db, { projects: projects.map((p) => p.name), query, scope, limit, now: new Date() })
    },
    'muse.lint': async ({ project }) => {
      const only = project ? [ctx.registry.get(project).name] : null
      const findings = await lintFleet(await fleet(), only)
      return {
        findings,
        errors: findings.filter((f) => f.level === 'error').length,
        warnings: findings.filter((f) => f.level === 'warning').length
      }
    },
    'muse.kept': async ({ project }) => {
      if (project) ctx.registry.get(project)
      return { kept: await keptEdits(await fleet(), project) }
    },
    'muse.keptMerge': async ({ project, name }) => {
      const p = ctx.registry.get(project)
      const result = await mergeKept(p.path, name)
      written(p.name, [result.file])
      return result
    },
    'muse.keptDiscard': async ({ project, name }) => {
      const p = ctx.registry.get(project)
      const result = await discardKept(p.path, name)
      written(p.name, [result.file])
      return result
    },
    'muse.hub': async () => detectHub(ctx.registry.list(), markedHub()),
    'muse.setHub': async ({ project }) => {
      ctx.settings.setInternal(HUB_SETTING, project === null ? undefined : ctx.registry.get(project).name)
      return detectHub(ctx.registry.list(), markedHub())
    }
  }
}

async function assertExists(p: Project): Promise<void> {
  try {
    await fs.access(p.path)
  } catch {
    throw new ApiError(`project folder ${p.path} is missing`, 'not_found')
  }
}
