/**
 * Handlers of the patch methods: they map the contract onto the patch service (`ctx.patches`),
 * acting as the operator. Verification, preconditions, runs and the audit live in core/patches.
 */
import type { patchMethods } from '../../shared/api'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The patch handlers bound to a service context. */
export function patchHandlers(ctx: ServiceContext): HandlersFor<typeof patchMethods> {
  const p = ctx.patches
  const sel = (i: { hub?: string; palace?: string }) => ({ hub: i.hub, palace: i.palace })
  return {
    'patch.list': (i) => p.list(sel(i), i.limit),
    'patch.get': (i) => p.get(sel(i), i.id, i.project),
    'patch.verify': (i) => p.verify(sel(i), i.id, i.project),
    'patch.preflight': (i) => p.preflight(sel(i), i.id, i.project, i.allow_dirty),
    'patch.apply': async (i) => (await p.start(sel(i), { ...i, test_command: undefined })).run,
    'patch.run': ({ id }) => p.run(id),
    'patch.cancel': ({ id }) => p.cancel(id),
    'patch.revert': ({ id }) => p.revert(id),
    'patch.commit': ({ id, message }) => p.commit(id, message),
    'patch.submit': (i) => p.submit(sel(i), { ...i }),
    'patch.worktreeDiff': ({ project }) => p.worktreeDiff(project),
    'patch.audit': (i) => p.audit(sel(i), i),
    'artifact.put': async (i) => {
      const r = await ctx.hubs.putArtifact({
        ...sel(i),
        kind: i.kind,
        content: i.content,
        metadata: i.metadata ?? null,
        created_by: ctx.settings.get().operatorId
      })
      const a = r.artifact
      return {
        hub: r.hub,
        palace: r.palace,
        artifact: {
          id: a.id,
          kind: a.kind,
          sha256: a.sha256,
          size_bytes: a.size_bytes,
          created_by: a.created_by,
          created_at: a.created_at,
          warnings: a.warnings ?? []
        }
      }
    },
    'patch.settings': ({ project }) => p.settings(project),
    'patch.setSettings': (i) => p.setSettings(i.project, i.test_command, i.test_timeout_ms)
  }
}
