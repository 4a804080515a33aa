/**
 * `git apply`: checks and applies a patch's exact bytes (fed on stdin, never a temporary file that
 * an editor or a line-ending filter could touch). A patch that does not apply is an answer, not an
 * error: the result carries git's exit code and its full output (the evidence an ack quotes).
 */
import { firstLine, GitError } from './errors'
import { git, type GitOptions } from './run'

/** Options of one `git apply`. */
export interface GitApplyOptions {
  /** `--check`: only say whether it applies; the worktree is untouched. */
  check?: boolean
  /** `--3way`: fall back to a three-way merge (touches the index). */
  threeWay?: boolean
  /** Milliseconds before git is killed (default 60 s: a large patch on a slow disk). */
  timeoutMs?: number
}

/** What `git apply` answered. */
export interface ApplyResult {
  ok: boolean
  /** git's exit code: 0 applied (or would), 1 does not apply, 128 unreadable patch. */
  code: number
  /** What git printed (its `--verbose` stderr, then stdout), verbatim. */
  output: string
  /** The command as the operator would type it (for the evidence). */
  command: string
}

/** Default timeout of an apply: generous for a 4 MiB patch over thousands of files. */
const APPLY_TIMEOUT_MS = 60_000

/** Runs `git apply [--check] [--3way] --verbose -` in `repo` with `patch` on stdin. */
export async function gitApply(repo: string, patch: Buffer, opts: GitApplyOptions = {}): Promise<ApplyResult> {
  const args = ['apply', '--verbose', ...(opts.check ? ['--check'] : []), ...(opts.threeWay ? ['--3way'] : []), '-']
  const run: GitOptions = { input: patch, okCodes: [0, 1, 128], timeoutMs: opts.timeoutMs ?? APPLY_TIMEOUT_MS }
  const r = await git(repo, args, run)
  // 128 is also how git says it could not start in `repo`: those stay errors.
  if (r.code === 128 && /not a git repository|cannot change to/i.test(r.stderr)) {
    throw new GitError(`git apply failed in ${repo}: ${firstLine(r.stderr)}`, 'failed', r.code, r.stderr)
  }
  const output = [r.stderr, r.stdout].filter((s) => s.length > 0).join('\n')
  return { ok: r.code === 0, code: r.code, output, command: `git ${args.slice(0, -1).join(' ')} < patch` }
}
