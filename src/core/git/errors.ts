/**
 * Errors of the git module. They are ApiErrors, so a handler can let them travel to any transport
 * unchanged: one line saying what went wrong and where.
 */
import { ApiError, type ApiErrorCode } from '../../shared/api-error'

/** Why a git call failed. */
export type GitFailure = 'missing' | 'no-folder' | 'not-a-repo' | 'timeout' | 'failed'

const CODES: Record<GitFailure, ApiErrorCode> = {
  missing: 'internal',
  'no-folder': 'not_found',
  'not-a-repo': 'not_found',
  timeout: 'internal',
  failed: 'internal'
}

/** A failed git call: the kind of failure, git's exit code and the first line of its stderr. */
export class GitError extends ApiError {
  constructor(
    message: string,
    readonly failure: GitFailure,
    readonly exitCode: number | null = null,
    readonly stderr = ''
  ) {
    super(message, CODES[failure])
    this.name = 'GitError'
  }
}

/** True when `err` is a GitError of one of the given kinds. */
export function isGitFailure(err: unknown, ...kinds: GitFailure[]): err is GitError {
  return err instanceof GitError && (kinds.length === 0 || kinds.includes(err.failure))
}

/** The first non-empty line of git's stderr, without git's `fatal: `/`error: ` prefix. */
export function firstLine(stderr: string): string {
  const line =
    stderr
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? ''
  return line.replace(/^(fatal|error):\s*/, '')
}
