/**
 * Handlers of the squad-notes methods. While the service watches, each project's notes are
 * cached until its refs move (the notes watcher pushes `notes.changed` and drops the entry);
 * the CLI reads afresh every time.
 */
import { ApiError } from '../../shared/api-error'
import type { notesMethods, NotesSnapshot } from '../../shared/api'
import { repoInfo } from '../git'
import { NotesWatcher, applyPromotion, planPromotion, readSquadNotes, writeNote } from '../notes'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The notes handlers bound to a service context. */
export function notesHandlers(ctx: ServiceContext): HandlersFor<typeof notesMethods> {
  const watching = ctx.opts.watch ?? true
  const cache = new Map<string, Promise<NotesSnapshot>>()
  const changed = (project: string) => {
    cache.delete(project)
    ctx.emit({ name: 'notes.changed', payload: { project, at: new Date().toISOString() } })
  }
  const watcher = watching ? new NotesWatcher(changed) : null
  if (watcher) ctx.onClose(() => watcher.close())

  const read = async (name: string): Promise<NotesSnapshot> => {
    const p = ctx.registry.get(name)
    if (!watching) return readSquadNotes(p.name, p.path)
    let hit = cache.get(p.name)
    if (!hit) {
      hit = readSquadNotes(p.name, p.path)
      cache.set(p.name, hit)
      hit.then(
        (s) => {
          if (s.repo && watcher && !watcher.has(p.name))
            repoInfo(p.path).then(
              (i) => watcher.add(p.name, i.commonDir),
              () => undefined
            )
        },
        () => cache.delete(p.name)
      )
    }
    return hit
  }
  const repoOf = async (name: string): Promise<{ project: string; root: string; snapshot: NotesSnapshot }> => {
    const snapshot = await read(name)
    if (!snapshot.repo) throw new ApiError(`project '${snapshot.project}' has no git repository: ${snapshot.problem}`, 'not_found')
    return { project: snapshot.project, root: snapshot.repo, snapshot }
  }

  return {
    'notes.list': async ({ project, ref }) => {
      if (!ref) return read(project)
      const p = ctx.registry.get(project)
      return readSquadNotes(p.name, p.path, { ref })
    },
    'notes.write': async ({ project, ...w }) => {
      const { project: name, root } = await repoOf(project)
      const written = await writeNote(root, w)
      if (watching) changed(name)
      return { project: name, ref: written.ref, commit: written.commit, note: written.note }
    },
    'notes.promote': async ({ project, dryRun }) => {
      const { project: name, root } = await repoOf(project)
      // promotion always plans on fresh refs: a cached snapshot might miss a merge seconds old
      const plan = await planPromotion(await readSquadNotes(name, root))
      const done = dryRun ? { appended: [], archived: [] } : await applyPromotion(root, plan)
      return { project: name, dryRun, ...plan, ...done }
    }
  }
}
