/**
 * Builds a project's overview card data: every role file's counts (through the parse cache),
 * findings, last change. File-system calls go through the cache's ScanFs.
 */
import { join } from 'node:path'
import type { Project, ProjectStatus, RoleStatus } from '../../shared/api'
import {
  type RoleCache,
  entryPath,
  museDir,
  readRoleDir,
  roleStatusOf,
  throughSwaps,
  unreadableRoleStatus,
  LINE_ERROR,
  LINE_WARNING,
  mtimeIso,
  type ScanFs
} from '../muse'
const DAILY_LOG = /^\d{4}-\d{2}-\d{2}\.md$/

/** Reads the status of one registered project through `cache`. Never throws for a missing folder. */
export async function readProjectStatus(project: Project, cache: RoleCache): Promise<ProjectStatus> {
  const fs = cache.fs
  const files = await readRoleDir(project.path, fs)
  if (files === null) return missingProjectStatus(project)
  const dir = museDir(project.path)
  cache.retainIn(dir, files)
  const [roles, memory] = await Promise.all([
    Promise.all(
      files.map((f) =>
        throughSwaps(() => cache.readCounts(entryPath(dir, f), f)).then(
          (r) => roleStatusOf(f, r),
          (err: unknown) => unreadableRoleStatus(f, err)
        )
      )
    ),
    readMemoryInfo(fs, project.path)
  ])
  return projectStatusOf(project, roles, memory)
}

/** The status of a registered project whose `.muse/` folder is missing. */
function missingProjectStatus(project: Project): ProjectStatus {
  return {
    ...project,
    exists: false,
    roles: [],
    lastChangeAt: null,
    lastMemoryLog: null,
    pendingDirectives: 0,
    openTodos: 0,
    findings: [{ code: 'missing', level: 'error', role: null, message: `${join(project.path, '.muse')} is missing` }]
  }
}

/** What the overview shows of a project's `memory/` folder. */
interface MemoryInfo {
  /** The newest daily log's name (`2026-05-01.md`). */
  lastLog: string | null
  /** The newest modification time of a `.md` file in it (ISO). */
  lastChange: string | null
}

/** The status of a project with `.muse/` from its role statuses and memory info. */
function projectStatusOf(project: Project, roles: RoleStatus[], memory: MemoryInfo): ProjectStatus {
  let last = memory.lastChange
  for (const r of roles) if (!r.error && (!last || r.modifiedAt > last)) last = r.modifiedAt
  const pendingDirectives = roles.reduce((n, r) => n + r.pendingDirectives, 0)
  const openTodos = roles.reduce((n, r) => n + r.openTodos, 0)
  return {
    ...project,
    exists: true,
    roles,
    lastChangeAt: last,
    lastMemoryLog: memory.lastLog,
    pendingDirectives,
    openTodos,
    findings: findingsOf(roles)
  }
}

/** The overview's findings for a set of role statuses. */
export function findingsOf(roles: RoleStatus[]): ProjectStatus['findings'] {
  const out: ProjectStatus['findings'] = []
  if (roles.length === 0) out.push({ code: 'no-roles', level: 'warning', role: null, message: 'no role files in .muse/' })
  for (const r of roles) {
    if (r.error) out.push({ code: 'unreadable', level: 'error', role: r.role, message: r.error })
    else if (!r.l0) out.push({ code: 'no-l0', level: 'error', role: r.role, message: 'no L0 status line' })
    else if (r.l0.overLimit)
      out.push({ code: 'l0-long', level: 'warning', role: r.role, message: `L0 is ${r.l0.length} chars (limit 120)` })
    if (r.lines > LINE_ERROR)
      out.push({ code: 'size', level: 'error', role: r.role, message: `${r.lines} lines: archive to .muse/archive/ (limit ${LINE_ERROR})` })
    else if (r.lines > LINE_WARNING)
      out.push({ code: 'size', level: 'warning', role: r.role, message: `${r.lines} lines: directives get buried (over ${LINE_WARNING})` })
  }
  return out
}

/** Newest daily log name and newest mtime in `memory/`. */
async function readMemoryInfo(fs: ScanFs, projectPath: string): Promise<MemoryInfo> {
  const dir = memoryDir(projectPath)
  let names: string[]
  try {
    names = memoryNotes(await fs.readdir(dir))
  } catch {
    return { lastLog: null, lastChange: null }
  }
  const stats = await Promise.all(names.map((n) => fs.stat(entryPath(dir, n)).catch(() => null)))
  return memoryInfoOf(names, stats)
}

function memoryDir(projectPath: string): string {
  return join(projectPath, 'memory')
}

/** The notes among a listing of `memory/`: names ending in `.md` (what the card reads, and what `muster status` stamps). */
export function memoryNotes(entries: { name: string }[]): string[] {
  return entries.map((d) => d.name).filter((n) => n.endsWith('.md'))
}

/** Memory info from the notes' names and their `stat`s (null: vanished). */
function memoryInfoOf(names: string[], stats: ({ mtimeMs: number } | null)[]): MemoryInfo {
  let newest = -Infinity
  for (const st of stats) if (st && st.mtimeMs > newest) newest = st.mtimeMs
  let lastLog: string | null = null
  for (const n of names) if (DAILY_LOG.test(n) && (lastLog === null || n > lastLog)) lastLog = n
  return { lastLog, lastChange: newest === -Infinity ? null : mtimeIso({ mtimeMs: newest }) }
}
