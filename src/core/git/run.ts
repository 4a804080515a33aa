/**
 * The one way Muster runs git: an argument array (never a shell), `-C <repo>`, a timeout, a clean
 * environment, and errors that say what went wrong (git missing, no such folder, not a
 * repository, timed out, or git's own first stderr line). Everything is asynchronous: git never
 * blocks the event loop of the server or the Electron main process.
 *
 * The environment drops inherited `GIT_*` variables that would redirect git to another repository
 * or notes ref (a hook's `GIT_DIR`, a user's `GIT_NOTES_REF`), turns off prompts and optional
 * locks (Muster reads while agents write), and sets `LC_ALL=C` so git's messages can be matched.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { resolve } from 'node:path'
import { firstLine, GitError } from './errors'

/** Default timeout of one git call: generous for a large repository's `rev-list`, short enough to surface a hung git. */
export const DEFAULT_TIMEOUT_MS = 30_000

/** Default cap on captured stdout (rev-list of a million commits is ~41 MB). */
const DEFAULT_MAX_BYTES = 128 * 1024 * 1024

/** Inherited variables git may keep: how to reach git and its credentials, never where the repository is. */
const KEEP_GIT_VARS = new Set([
  'GIT_EXEC_PATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM'
])

/** Options of one git call. */
export interface GitOptions {
  /** Milliseconds before git is killed (default 30 s). */
  timeoutMs?: number
  /** Bytes written to git's stdin (stdin is closed either way). */
  input?: string | Buffer
  /** Extra environment (author identity, dates, config isolation). */
  env?: Record<string, string>
  /** `-c key=value` settings put before the subcommand. */
  config?: string[]
  /** Exit codes that are answers rather than failures (default: only 0). */
  okCodes?: number[]
  /** Cap on stdout bytes; beyond it the call fails (default 128 MiB). */
  maxBytes?: number
}

/** What a git call printed, and how it exited. */
export interface GitResult<T = string> {
  stdout: T
  stderr: string
  code: number
}

/** The environment every git call runs with. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') || KEEP_GIT_VARS.has(k)) env[k] = v
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra }
}

/** The full argument list for `git -C <repo> [-c ...] <args>`. */
function argv(repo: string, args: string[], config: string[] = []): string[] {
  return ['-C', resolve(repo), ...config.flatMap((c) => ['-c', c]), ...args]
}

/**
 * Starts git for streaming use (e.g. `cat-file --batch`). The caller owns the process; use
 * `processError` to turn a spawn error or a bad exit into a GitError.
 */
export function spawnGit(repo: string, args: string[], opts: Pick<GitOptions, 'env' | 'config'> = {}): ChildProcessWithoutNullStreams {
  return spawn('git', argv(repo, args, opts.config), {
    env: gitEnv(opts.env),
    windowsHide: true,
    shell: false,
    stdio: ['pipe', 'pipe', 'pipe']
  })
}

/** A GitError for a process that could not start (`err`) or exited with `code` and `stderr`. */
export function processError(
  repo: string,
  args: string[],
  err: NodeJS.ErrnoException | null,
  code: number | null,
  stderr: string
): GitError {
  const dir = resolve(repo)
  if (err?.code === 'ENOENT')
    return new GitError('git was not found on the PATH: install git to read repositories, tags and notes', 'missing')
  if (err) return new GitError(`cannot run git in ${dir}: ${err.message}`, 'failed')
  const why = firstLine(stderr)
  if (/^cannot change to /.test(why)) return new GitError(`${dir} does not exist or is not a folder`, 'no-folder', code, stderr)
  if (/not a git repository/i.test(why)) return new GitError(`${dir} is not a git repository`, 'not-a-repo', code, stderr)
  return new GitError(`git ${args[0] ?? ''} failed in ${dir}: ${why || `exit code ${code}`}`, 'failed', code, stderr)
}

/** Runs git and returns stdout as raw bytes (patches and blobs must round-trip exactly). */
export function gitBytes(repo: string, args: string[], opts: GitOptions = {}): Promise<GitResult<Buffer>> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES
  const ok = opts.okCodes ?? [0]
  return new Promise((done, fail) => {
    const child = spawnGit(repo, args, opts)
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    let settled = false
    const finish = (e: Error | null, result?: GitResult<Buffer>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (e) fail(e)
      else done(result!)
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish(new GitError(`git ${args[0] ?? ''} timed out after ${Math.round(timeoutMs / 1000)} s in ${resolve(repo)}`, 'timeout'))
    }, timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        child.kill('SIGKILL')
        return finish(new GitError(`git ${args[0] ?? ''} printed more than ${maxBytes} bytes in ${resolve(repo)}`, 'failed'))
      }
      out.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (e: NodeJS.ErrnoException) => finish(processError(repo, args, e, null, '')))
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8')
      if (code !== null && ok.includes(code)) finish(null, { stdout: Buffer.concat(out), stderr, code })
      else finish(processError(repo, args, null, code, stderr))
    })
    child.stdin.on('error', () => undefined) // git may exit before reading all input; its exit code tells
    child.stdin.end(opts.input ?? '')
  })
}

/** Runs git and returns stdout decoded as UTF-8. */
export async function git(repo: string, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const r = await gitBytes(repo, args, opts)
  return { ...r, stdout: r.stdout.toString('utf8') }
}

/** Runs git and returns stdout without its trailing newline. */
export async function gitText(repo: string, args: string[], opts: GitOptions = {}): Promise<string> {
  return (await git(repo, args, opts)).stdout.replace(/\r?\n$/, '')
}
