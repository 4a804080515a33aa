/**
 * Role names coming from operators and agents become file paths: they are validated before any
 * I/O (no separators, no `.` or `..`, no control characters, so no absolute path or traversal)
 * and matched case-insensitively (and in Unicode NFC) against the role files that exist in
 * `.muse/`; only a listed file's own name is ever joined to a path. Any name the role list shows
 * is accepted, Unicode included (`产品`, `qa-2`, `Research Lead`).
 */
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { Project } from '../../shared/api'
import { CONFIG_FILES, listRoleFiles, museDir } from './role-files'

/** Separators, control characters and lone surrogates: never in a role name. */
// eslint-disable-next-line no-control-regex
const REFUSED = /[/\\\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Throws `invalid_input` unless `role` is a role file's name: any characters but separators, control characters, `.` and `..` (`build`, `QA`, `产品`). */
export function assertRoleName(role: string): string {
  if (role.trim() === '' || role === '.' || role === '..' || role.length > 200 || REFUSED.test(role)) {
    throw new ApiError(
      `invalid role name '${role}': a role file's name without '/', '\\', '..' or control characters (like build, qa, 产品)`,
      'invalid_input'
    )
  }
  if (CONFIG_FILES.has(`${role.toLowerCase()}.md`)) throw new ApiError(`'${role}' is a config file, not a role`, 'invalid_input')
  return role
}

/** The existing role file for `role` in a project, or a `not_found` error listing the roles. */
export async function roleFile(project: Project, role: string): Promise<{ role: string; file: string; path: string }> {
  assertRoleName(role)
  const files = await listRoleFiles(project.path)
  const file = findRoleFile(files, role)
  if (!file) {
    const known = files.map((f) => f.replace(/\.md$/i, '')).join(', ') || 'none'
    throw new ApiError(`no role '${role}' in ${project.name} (roles: ${known})`, 'not_found')
  }
  return { role: file.replace(/\.md$/i, '').toLowerCase(), file, path: join(museDir(project.path), file) }
}

/** The listed role file named `role` (case-insensitive, Unicode NFC on both sides), or undefined. */
export function findRoleFile(files: readonly string[], role: string): string | undefined {
  const want = `${role.normalize('NFC').toLowerCase()}.md`
  return files.find((f) => f.normalize('NFC').toLowerCase() === want)
}
