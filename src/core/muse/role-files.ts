/**
 * Role-file discovery and per-file status (spec/muse-role-files.md sections 1, 2 and 6).
 * A role file is any `*.md` directly inside `.muse/`; `paths.md` is configuration, not a role.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { RoleStatus, SizeLevel } from '../../shared/api'
import { parseRole, type ParsedRole } from './parse-role'

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

/** Lists role file names in `.muse/`, sorted; [] when the folder is missing. */
export async function listRoleFiles(projectPath: string): Promise<string[]> {
  let entries
  try {
    entries = await fs.readdir(museDir(projectPath), { withFileTypes: true })
  } catch {
    return []
  }
  return entries
    .filter((e) => e.isFile() && /\.md$/i.test(e.name) && !CONFIG_FILES.has(e.name.toLowerCase()))
    .map((e) => e.name)
    .sort()
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
    const [buf, st] = await Promise.all([fs.readFile(path), fs.stat(path)])
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
