/**
 * The project registry: which folders Muster watches, under which name and key.
 */
import { promises as fs } from 'node:fs'
import { basename, join, resolve, sep } from 'node:path'
import type { Project } from '../../shared/api'
import { ApiError } from '../../shared/api-error'
import { isInside } from '../../shared/path-inside'
import type { Db } from '../sqlite'
import { expandPath } from './home'

interface ProjectRow {
  name: string
  key: string
  path: string
  added_at: string
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const KEY = /^[A-Z][A-Z0-9_-]{0,63}$/

/** Upper-case project key used in directive targets (`MUSE/BUILD`). */
export function projectKey(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9_-]/g, '_')
}

/** Derives a registry name from a folder name (`My Project` -> `my-project`). */
export function nameFromFolder(path: string): string {
  const base = basename(path)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
  return base || 'project'
}

/** Store of registered projects, backed by the state DB. */
export class ProjectRegistry {
  constructor(private readonly db: Db) {}

  /** All projects, by name. */
  list(): Project[] {
    const rows = this.db.prepare('SELECT name, key, path, added_at FROM projects ORDER BY name').all() as ProjectRow[]
    return rows.map(toProject)
  }

  /** One project by name (case-insensitive); throws not_found. */
  get(name: string): Project {
    const found = this.find(name)
    if (!found) throw new ApiError(`unknown project '${name}' (see: muster projects list)`, 'not_found')
    return found
  }

  /** One project by name (case-insensitive), or null. */
  find(name: string): Project | null {
    const row = this.db.prepare('SELECT name, key, path, added_at FROM projects WHERE name = ?').get(name) as ProjectRow | undefined
    return row ? toProject(row) : null
  }

  /** The name of the registered project whose folder holds `folder` (the deepest one), or null. */
  holding(folder: string | null): string | null {
    if (!folder) return null
    const dir = resolve(folder)
    const hits = this.list().filter((p) => isInside(dir, p.path, sep))
    return hits.sort((a, b) => b.path.length - a.path.length)[0]?.name ?? null
  }

  /** Registers a folder holding `.muse/`; refuses duplicates and folders without `.muse/`. */
  async add(rawPath: string, name?: string): Promise<Project> {
    const path = await realFolder(rawPath)
    if (!(await isDir(join(path, '.muse')))) {
      throw new ApiError(`${path} has no .muse/ folder: not a MUSE project`, 'invalid_input')
    }
    const chosen = name ?? nameFromFolder(path)
    if (!NAME.test(chosen)) {
      throw new ApiError(`invalid project name '${chosen}': use letters, digits, '.', '_' or '-' (max 64)`, 'invalid_input')
    }
    const byPath = this.db.prepare('SELECT name FROM projects WHERE path = ?').get(path) as { name: string } | undefined
    if (byPath) throw new ApiError(`${path} is already registered as '${byPath.name}'`, 'conflict')
    const byName = this.db.prepare('SELECT path FROM projects WHERE name = ?').get(chosen) as { path: string } | undefined
    if (byName) throw new ApiError(`a project named '${chosen}' already exists (${byName.path}); pass --name`, 'conflict')
    const key = projectKey(chosen)
    const byKey = this.db.prepare('SELECT name FROM projects WHERE key = ?').get(key) as { name: string } | undefined
    if (byKey) throw new ApiError(`project key ${key} is already used by '${byKey.name}'; pass another --name`, 'conflict')
    const row: ProjectRow = { name: chosen, key, path, added_at: new Date().toISOString() }
    this.db.prepare('INSERT INTO projects (name, key, path, added_at) VALUES (@name, @key, @path, @added_at)').run(row)
    return toProject(row)
  }

  /**
   * Changes a project's key (the `PROJECT` of `PROJECT/ROLE` directive targets). Keys are
   * upper-case like directive targets (`[A-Z][A-Z0-9_-]*`) and unique.
   */
  setKey(name: string, rawKey: string): Project {
    const project = this.get(name)
    const key = rawKey.trim().toUpperCase()
    if (!KEY.test(key)) {
      throw new ApiError(
        `invalid project key '${rawKey}': a letter, then letters, digits, '_' or '-' (like MUSE or DYA-WEB; max 64)`,
        'invalid_input'
      )
    }
    if (key === 'ALL') throw new ApiError("'ALL' is reserved: it addresses every project", 'invalid_input')
    const other = this.db.prepare('SELECT name FROM projects WHERE key = ? AND name <> ?').get(key, project.name) as
      { name: string } | undefined
    if (other) throw new ApiError(`project key ${key} is already used by '${other.name}'`, 'conflict')
    this.db.prepare('UPDATE projects SET key = ? WHERE name = ?').run(key, project.name)
    return { ...project, key }
  }

  /** Unregisters a project (its files are untouched); throws not_found. */
  remove(name: string): Project {
    const project = this.get(name)
    this.db.prepare('DELETE FROM projects WHERE name = ?').run(project.name)
    return project
  }

  /** Registers every folder under `dir` (depth <= 3) that holds `.muse/`, skipping known ones. */
  async scan(rawDir: string): Promise<{ added: Project[]; skipped: { path: string; reason: string }[] }> {
    const dir = await realFolder(rawDir)
    const found = await findMuseFolders(dir, 3)
    const added: Project[] = []
    const skipped: { path: string; reason: string }[] = []
    for (const path of found) {
      try {
        added.push(await this.add(path))
      } catch (err) {
        skipped.push({ path, reason: (err as Error).message })
      }
    }
    return { added, skipped }
  }
}

function toProject(row: ProjectRow): Project {
  return { name: row.name, key: row.key, path: row.path, addedAt: row.added_at }
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** Resolves a user-given folder to its real absolute path; clear error when it is not a folder. */
async function realFolder(rawPath: string): Promise<string> {
  const abs = expandPath(rawPath)
  let real: string
  try {
    real = await fs.realpath(abs)
  } catch {
    throw new ApiError(`no such folder: ${abs}`, 'not_found')
  }
  if (!(await isDir(real))) throw new ApiError(`not a folder: ${abs}`, 'invalid_input')
  return real
}

const SKIP = new Set(['node_modules', '.git', '.muse', 'memory', 'dist', 'out', 'build', 'target', '.venv'])

/** Breadth-first search for folders containing `.muse/`, not descending into found projects. */
async function findMuseFolders(root: string, maxDepth: number): Promise<string[]> {
  const out: string[] = []
  let level = [root]
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = []
    for (const dir of level) {
      if (await isDir(join(dir, '.muse'))) {
        out.push(dir)
        continue
      }
      let entries
      try {
        entries = await fs.readdir(dir, { withFileTypes: true })
      } catch {
        continue
      }
      for (const e of entries) {
        if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) next.push(join(dir, e.name))
      }
    }
    level = next.sort()
  }
  return out.sort()
}
