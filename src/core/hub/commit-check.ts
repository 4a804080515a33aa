/** Checks that a task's base commit exists in a project's git repository (`git cat-file -e <sha>^{commit}`). */
import { execFile } from 'node:child_process'
import { ApiError } from '../../shared/api'

/** Resolves when `sha` names a commit in the repository at `repoDir`; an invalid_input ApiError otherwise. */
export function assertCommitExists(repoDir: string, sha: string, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-C', repoDir, 'cat-file', '-e', `${sha}^{commit}`], { timeout: 10_000 }, (err, _out, stderr) => {
      if (!err) return resolve()
      const why = String(stderr || '').trim().split('\n')[0] || err.message
      reject(new ApiError(`task base commit ${sha} is not a commit in ${label} (${repoDir}): ${why}`, 'invalid_input'))
    })
  })
}
