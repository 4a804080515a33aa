/**
 * Role-file discovery and per-file status (spec/muse-role-files.md sections 1, 2 and 6).
 * A role file is any `*.md` directly inside `.muse/`; `paths.md` is configuration, not a role.
 */
import { join, sep } from 'node:path'
import type { L0, RoleStatus, SizeLevel } from '../../shared/api'
import type { RoleDigest } from './parse-role'
import { asyncScanFs, type ScanFs } from './scan-fs'
import { parseLeftover, processAlive } from './write-leftovers'

/** Files in `.muse/` that are configuration rather than roles. */
export const CONFIG_FILES = new Set(['paths.md'])

/** Line-count thresholds: over 500 directives get buried, over 800 the file must be archived. */
export const LINE_WARNING = 500
export const LINE_ERROR = 800

/** The `.muse` folder of a project. */
export function museDir(projectPath: string): string {
  return join(projectPath, '.muse')
}

/** `join(dir, name)` for a normalised folder and an entry name from `readdir` (no `/`, never `.`/`..`), without join's normalising pass: the fleet scan builds thousands. */
export function entryPath(dir: string, name: string): string {
  return dir + sep + name
}

/** Role name of a role file name (`build.md` -> `build`). */
export function roleName(file: string): string {
  return file.replace(/\.md$/i, '')
}

/**
 * A writer's swap leaves a file missing for microseconds (see `safe-write.ts`): reads that find it
 * missing are retried for up to this long before the file counts as gone.
 */
const SWAP_GAP_MS = 20

/** Runs `fn` again while it fails with ENOENT, for up to `SWAP_GAP_MS`. */
export async function throughSwaps<T>(fn: () => Promise<T>): Promise<T> {
  const until = performance.now() + SWAP_GAP_MS
  for (;;) {
    try {
      return await fn()
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || performance.now() > until) throw err
      await new Promise((r) => setTimeout(r, 1))
    }
  }
}

/**
 * Lists role file names in `.muse/`, sorted; [] when the folder is missing. A link to a file is a
 * role file too (the link policy decides whether Muster may write it). A listing taken while a
 * swap had the file aside (its aside copy is there, the file is not) is taken again.
 */
export async function listRoleFiles(projectPath: string, fs: ScanFs = asyncScanFs): Promise<string[]> {
  return (await readRoleDir(projectPath, fs)) ?? []
}

/** `listRoleFiles`, but null when there is no `.muse/` folder (one call: no separate stat to tell). */
export async function readRoleDir(projectPath: string, fs: ScanFs = asyncScanFs): Promise<string[] | null> {
  return (await readMuseListing(projectPath, fs))?.files ?? null
}

/** What one listing of `.muse/` says, beyond the role files: what lint needs without asking the disk again. */
export interface MuseListing {
  /** Role file names, sorted. */
  files: string[]
  /** Role files that are symbolic links (only these can resolve outside a folder that is not one). */
  links: string[]
  /** Names of Muster's working files (`.x.md.muster-...`) in the folder. */
  workingFiles: string[]
  /** Configuration files present (lower case, like `paths.md`). */
  config: string[]
}

/** Lists `.muse/` once (null when there is none): role files, links, Muster's working files, config files. */
export async function readMuseListing(projectPath: string, fs: ScanFs = asyncScanFs): Promise<MuseListing | null> {
  const dir = museDir(projectPath)
  const until = performance.now() + SWAP_GAP_MS
  let entries
  for (;;) {
    try {
      entries = await fs.readdir(dir)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      return code === 'ENOENT' || code === 'ENOTDIR' ? null : { files: [], links: [], workingFiles: [], config: [] }
    }
    const names = new Set(entries.map((e) => e.name))
    const mid = entries.some((e) => {
      const l = e.name.startsWith('.') ? parseLeftover(e.name) : null
      return l?.kind === 'aside' && !names.has(l.file) && processAlive(l.pid)
    })
    if (!mid || performance.now() > until) break
    await new Promise((r) => setTimeout(r, 1))
  }
  const md = entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && /\.md$/i.test(e.name))
  const config = md.map((e) => e.name.toLowerCase()).filter((n) => CONFIG_FILES.has(n))
  const candidates = md.filter((e) => !CONFIG_FILES.has(e.name.toLowerCase()))
  const files = await Promise.all(candidates.map(async (e) => (e.isFile() || (await fs.stat(entryPath(dir, e.name)).then((st) => st.isFile(), () => false)) ? e.name : null)))
  const roleFiles = files.filter((f): f is string => f !== null).sort()
  const linked = new Set(candidates.filter((e) => e.isSymbolicLink()).map((e) => e.name))
  return {
    files: roleFiles,
    links: roleFiles.filter((f) => linked.has(f)),
    workingFiles: entries.filter((e) => e.name.startsWith('.') && e.name.includes('.muster-')).map((e) => e.name),
    config
  }
}

/** Counts lines as `wc -l` does: the number of `\n` characters. */
export function countLines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** The size severity of a line count. */
export function sizeLevel(lines: number): SizeLevel {
  if (lines > LINE_ERROR) return 'error'
  if (lines > LINE_WARNING) return 'warning'
  return 'ok'
}

/** What the overview shows of a role file besides its size and time (derived from its digest; cached apart, see parse-cache.ts). */
export interface RoleCounts {
  l0: L0 | null
  lineCount: number
  pendingDirectives: number
  openTodos: number
  doneTodos: number
}

/** The overview's counts of a digest. */
export function countsOf(d: RoleDigest): RoleCounts {
  return { l0: d.l0, lineCount: d.lineCount, ...pendingAndTodos(d) }
}

/** Status of one role file from its counts (with size and modification time). */
export function roleStatusOf(file: string, r: RoleCounts & { sizeBytes: number; modifiedAt: string }): RoleStatus {
  return {
    role: roleName(file),
    file,
    l0: r.l0,
    lines: r.lineCount,
    sizeBytes: r.sizeBytes,
    sizeLevel: sizeLevel(r.lineCount),
    modifiedAt: r.modifiedAt,
    error: null,
    pendingDirectives: r.pendingDirectives,
    openTodos: r.openTodos,
    doneTodos: r.doneTodos
  }
}

/** Overview counters of a parsed role file: 🟡 directives and notices, open and done TODO items. */
export function pendingAndTodos(parsed: RoleDigest): { pendingDirectives: number; openTodos: number; doneTodos: number } {
  let pending = 0
  for (const d of parsed.directives) if (d.mark === 'pending') pending++
  for (const n of parsed.notices) if (n.mark === 'pending') pending++
  return { pendingDirectives: pending, openTodos: parsed.todos.open, doneTodos: parsed.todos.done }
}

/** The status of a role file that could not be read: `error` says why (a status, not a throw). */
export function unreadableRoleStatus(file: string, err: unknown): RoleStatus {
  const code = (err as NodeJS.ErrnoException).code
  const reason = code === 'EACCES' ? 'permission denied' : code === 'ENOENT' ? 'file vanished' : String(err)
  return {
    role: roleName(file),
    file,
    l0: null,
    lines: 0,
    sizeBytes: 0,
    sizeLevel: 'ok',
    modifiedAt: new Date(0).toISOString(),
    error: `cannot read ${file}: ${reason}`,
    pendingDirectives: 0,
    openTodos: 0,
    doneTodos: 0
  }
}
