/**
 * The one symlink policy for project files (README, "Where data lives"): Muster follows links to
 * read, but writes only to files whose real path is inside the project's real folder. A role file,
 * `.muse/` or `memory/` that resolves outside the project is listed and read, reported by lint
 * (`symlink-outside`), and every write to it is refused. A link that stays inside the project is
 * written through: the edit lands in the file it points to and the link stays a link.
 */
import { promises as fs } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { isInside } from '../../shared/path-inside'
import { pause, VANISH_GRACE_MS } from './safe-write-settle'

/** How a project-relative path is shown in messages (`.muse/qa.md`). */
function shown(root: string, path: string): string {
  const rel = relative(root, path)
  return rel && !rel.startsWith('..') ? rel : path
}

/**
 * The real path to write for `path` (a file in project `root`), following links that stay inside
 * the project. Throws `forbidden` for a path that resolves outside it, `not_found` when its folder
 * is missing or it is a link to nothing.
 */
export async function writableTarget(path: string, root: string): Promise<string> {
  const realRoot = await fs.realpath(root).catch(() => {
    throw new ApiError(`project folder ${root} is missing`, 'not_found')
  })
  let real: string | null = null
  const deadline = performance.now() + VANISH_GRACE_MS
  while (real === null) {
    try {
      real = await fs.realpath(path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      const link = await fs.lstat(path).catch(() => null)
      if (link?.isSymbolicLink()) {
        // its target may be between the two steps of a writer's swap (missing for microseconds)
        if (performance.now() < deadline) {
          await pause()
          continue
        }
        throw new ApiError(`${shown(root, path)} is a link to a missing file: not written`, 'not_found')
      }
      // missing, or back already after another writer's swap: either way the path itself, no link
      const dir = await fs.realpath(dirname(path)).catch(() => {
        throw new ApiError(`cannot write ${shown(root, path)}: its folder is missing`, 'not_found')
      })
      real = join(dir, basename(path))
    }
  }
  if (!isInside(real, realRoot, sep)) {
    throw new ApiError(
      `${shown(root, path)} resolves to ${real}, outside the project: Muster reads it but never writes through a link that leaves the project`,
      'forbidden'
    )
  }
  return real
}

/** A project path that resolves outside the project. */
export interface OutsideLink {
  /** Project-relative path (`.muse`, `memory`, `.muse/qa.md`). */
  path: string
  /** Where it resolves to. */
  target: string
}

/**
 * `.muse/`, `memory/` and role files of a project that resolve outside it (for lint). `links`:
 * the role files known to be symbolic links (from a listing of `.muse/`); only they can leave the
 * project when `.muse/` is no link itself, so the others are not resolved one by one.
 */
export async function outsideLinks(root: string, roleFiles: string[], links?: string[]): Promise<OutsideLink[]> {
  const linkedFolders = await Promise.all(
    ['.muse', 'memory'].map((d) =>
      fs.lstat(join(root, d)).then(
        (st) => st.isSymbolicLink(),
        () => false
      )
    )
  )
  const toCheck = links ?? roleFiles
  if (!linkedFolders.includes(true) && toCheck.length === 0) return []
  const realRoot = await fs.realpath(root).catch(() => null)
  if (!realRoot) return []
  const check = async (rel: string): Promise<OutsideLink | null> => {
    const real = await fs.realpath(join(root, rel)).catch(() => null)
    return real && !isInside(real, realRoot, sep) ? { path: rel, target: real } : null
  }
  // a folder that is no link lies inside the project
  const folders = await Promise.all(['.muse', 'memory'].map((d, i) => (linkedFolders[i] ? check(d) : null)))
  // files inside an outside .muse/ are covered by its own finding
  const files = folders[0] ? [] : await Promise.all(toCheck.map((f) => check(join('.muse', f))))
  return [...folders, ...files].filter((x): x is OutsideLink => x !== null)
}
