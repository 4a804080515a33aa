/**
 * The fleet overview (`fleet.status`): every project's card, role files read through the parse
 * cache. One implementation for the service's handler and for `muster status`, which calls
 * `fleetStatusAt` directly: agents' hooks run that command on every tool call, and this module's
 * imports stay free of the contract's zod schemas, the hub and the watcher (loading them would
 * take longer than the whole command; `cli-startup.test.ts` holds the line).
 */
import type { Project, ProjectStatus } from '../../shared/api'
import { RoleCache, syncScanFs } from '../muse'
import { readProjectStatus } from './project-status'
import { ProjectRegistry } from './registry'
import { openStateDb } from './state-db'

/**
 * Statuses of the project named `project` (of those named, for a list), or of every registered
 * project, each from `statusOf`; then saves new digests (and, after a whole-fleet read, forgets
 * removed projects' files).
 */
export async function fleetStatus(
  registry: ProjectRegistry,
  roles: RoleCache,
  statusOf: (project: Project) => Promise<ProjectStatus>,
  project?: string | readonly string[]
): Promise<ProjectStatus[]> {
  const named = typeof project === 'string' ? [project] : project
  const projects = named !== undefined ? named.map((n) => registry.get(n.trim())) : registry.list()
  const statuses = await Promise.all(projects.map(statusOf))
  if (project === undefined) roles.retainProjects(projects)
  roles.flush()
  return statuses
}

/**
 * `fleet.status` for the Muster home `home`, without the service: opens the state DB, reads,
 * closes it. File-system calls are synchronous (several times cheaper each): only for a one-shot
 * process, never inside the service.
 */
export async function fleetStatusAt(home: string, project?: string | readonly string[]): Promise<ProjectStatus[]> {
  const db = openStateDb(home)
  try {
    const roles = new RoleCache({ db, fs: syncScanFs })
    return await fleetStatus(new ProjectRegistry(db), roles, (p) => readProjectStatus(p, roles), project)
  } finally {
    db.close()
  }
}
