/**
 * Reads and parses every role file of a set of projects, re-parsing a file only when its mtime or
 * size changed (a per-service cache), so the directive and lint views stay cheap on big fleets.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Project } from '../../shared/api'
import { parseRole, type ParsedRole } from './parse-role'
import { listRoleFiles, museDir, throughSwaps } from './role-files'
import { noteSize } from './safe-write-settle'

/** The parsed role files of one project; `unreadable` lists files that could not be read. */
export interface ScannedProject {
  project: Project
  roles: ParsedRole[]
  unreadable: { file: string; reason: string }[]
}

interface Entry {
  mtimeMs: number
  size: number
  parsed: ParsedRole
}

/** Parsed role files keyed by absolute path, validated by mtime + size. */
export class RoleCache {
  private readonly entries = new Map<string, Entry>()

  /** Parses `path` (file name `file`), reusing the cached parse when the file is unchanged. */
  async read(path: string, file: string): Promise<ParsedRole> {
    const st = await fs.stat(path)
    const hit = this.entries.get(path)
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.parsed
    const text = await fs.readFile(path, 'utf8')
    noteSize(path, st.size) // a file much shorter at edit time is then a rewrite to wait out
    const parsed = parseRole(file, text)
    this.entries.set(path, { mtimeMs: st.mtimeMs, size: st.size, parsed })
    return parsed
  }

  /** Forgets every cached parse. */
  clear(): void {
    this.entries.clear()
  }
}

/** Parses every role file of one project. */
export async function scanProject(project: Project, cache: RoleCache): Promise<ScannedProject> {
  const files = await listRoleFiles(project.path)
  const roles: ParsedRole[] = []
  const unreadable: ScannedProject['unreadable'] = []
  await Promise.all(
    files.map(async (file) => {
      try {
        roles.push(await throughSwaps(() => cache.read(join(museDir(project.path), file), file)))
      } catch (err) {
        unreadable.push({ file, reason: (err as NodeJS.ErrnoException).code ?? String(err) })
      }
    })
  )
  roles.sort((a, b) => a.file.localeCompare(b.file))
  return { project, roles, unreadable }
}

/** Parses every role file of every project given. */
export function scanProjects(projects: Project[], cache: RoleCache): Promise<ScannedProject[]> {
  return Promise.all(projects.map((p) => scanProject(p, cache)))
}
