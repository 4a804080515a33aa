/** Checks that a task's base commit exists in a project's git repository (through the core's git module). */
import { ApiError } from '../../shared/api-error'
import { isGitFailure, commitExists } from '../git'

/** Resolves when `sha` names a commit in the repository at `repoDir`; an invalid_input ApiError otherwise. */
export async function assertCommitExists(repoDir: string, sha: string, label: string): Promise<void> {
  let found: boolean
  try {
    found = await commitExists(repoDir, sha)
  } catch (err) {
    if (isGitFailure(err)) throw new ApiError(`task base commit ${sha} cannot be checked in ${label}: ${err.message}`, 'invalid_input')
    throw err
  }
  if (!found) throw new ApiError(`task base commit ${sha} is not a commit in ${label} (${repoDir})`, 'invalid_input')
}
