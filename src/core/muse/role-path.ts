/**
 * Role names coming from operators and agents become file paths: they are validated before any
 * I/O (no separators, no `..`, no absolute paths) and matched case-insensitively against the
 * role files that exist in `.muse/`.
 */
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { Project } from '../../shared/api'
import { CONFIG_FILES, listRoleFiles, museDir } from './role-files'

const ROLE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

/** Throws `invalid_input` unless `role` is a plain role name (`build`, `QA`, `fundraise-2`). */
export function assertRoleName(role: string): string {
  if (!ROLE.test(role)) {
    throw new ApiError(`invalid role name '${role}': use letters, digits, '-' or '_' (like build, growth, qa)`, 'invalid_input')
  }
  if (CONFIG_FILES.has(`${role.toLowerCase()}.md`)) throw new ApiError(`'${role}' is a config file, not a role`, 'invalid_input')
  return role
}

/** The existing role file for `role` in a project, or a `not_found` error listing the roles. */
export async function roleFile(project: Project, role: string): Promise<{ role: string; file: string; path: string }> {
  assertRoleName(role)
  const files = await listRoleFiles(project.path)
  const file = files.find((f) => f.toLowerCase() === `${role.toLowerCase()}.md`)
  if (!file) {
    const known = files.map((f) => f.replace(/\.md$/i, '')).join(', ') || 'none'
    throw new ApiError(`no role '${role}' in ${project.name} (roles: ${known})`, 'not_found')
  }
  return { role: file.replace(/\.md$/i, '').toLowerCase(), file, path: join(museDir(project.path), file) }
}
