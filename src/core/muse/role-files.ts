/**
 * Role-file discovery and per-file status (spec/muse-role-files.md sections 1, 2 and 6).
 * A role file is any `*.md` directly inside `.muse/`; `paths.md` is configuration, not a role.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { RoleStatus, SizeLevel } from '../../shared/api'
import { parseRole, type ParsedRole } from './parse-role'
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
export async function listRoleFiles(projectPath: string): Promise<string[]> {
  const dir = museDir(projectPath)
  const until = performance.now() + SWAP_GAP_MS
  let entries
  for (;;) {
    try {
      entries = await fs.readdir(dir, { withFileTypes: true })
    } catch {
      return []
    }
    const names = new Set(entries.map((e) => e.name))
    const mid = entries.some((e) => {
      const l = e.name.startsWith('.') ? parseLeftover(e.name) : null
      return l?.kind === 'aside' && !names.has(l.file) && processAlive(l.pid)
    })
    if (!mid || performance.now() > until) break
    await new Promise((r) => setTimeout(r, 1))
  }
  const candidates = entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && /\.md$/i.test(e.name) && !CONFIG_FILES.has(e.name.toLowerCase()))
  const files = await Promise.all(candidates.map(async (e) => (e.isFile() || (await fs.stat(join(dir, e.name)).then((st) => st.isFile(), () => false)) ? e.name : null)))
  return files.filter((f): f is string => f !== null).sort()
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

/** Status of one role file given its text and modification time. */
export function roleStatusFromText(file: string, text: string, modified: Date, sizeBytes: number): RoleStatus {
  const parsed = parseRole(file, text)
  const lines = parsed.lineCount
  return {
    role: roleName(file),
    file,
    l0: parsed.l0,
    lines,
    sizeBytes,
    sizeLevel: sizeLevel(lines),
    modifiedAt: modified.toISOString(),
    error: null,
    ...pendingAndTodos(parsed)
  }
}

/** Overview counters of a parsed role file: 🟡 directives and notices, open and done TODO items. */
export function pendingAndTodos(parsed: ParsedRole): { pendingDirectives: number; openTodos: number; doneTodos: number } {
  let pending = 0
  for (const d of parsed.directives) if (d.mark === 'pending') pending++
  for (const n of parsed.notices) if (n.mark === 'pending') pending++
  return { pendingDirectives: pending, openTodos: parsed.todos.open, doneTodos: parsed.todos.done }
}

/** Reads and parses one role file; a read failure becomes a status with `error` set, not a throw. */
export async function readRoleStatus(projectPath: string, file: string): Promise<RoleStatus> {
  const path = join(museDir(projectPath), file)
  try {
    const [buf, st] = await throughSwaps(() => Promise.all([fs.readFile(path), fs.stat(path)]))
    return roleStatusFromText(file, buf.toString('utf8'), st.mtime, buf.length)
  } catch (err) {
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
}
