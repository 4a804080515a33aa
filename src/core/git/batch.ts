/**
 * Batched object reads: one `git cat-file --batch` (or `--batch-check`) process answers any
 * number of lookups, so reading 10,000 note blobs costs one spawn, not 10,000. Answers come back
 * in input order: `<oid> <type> <size>\n<content>\n`, or `<input> missing\n`.
 */
import { GitError } from './errors'
import { DEFAULT_TIMEOUT_MS, processError, spawnGit } from './run'

/** One object as `cat-file` returned it. */
export interface GitObject {
  oid: string
  type: string
  size: number
  /** The raw bytes (empty for `--batch-check`). */
  content: Buffer
}

/** Options of a batch read. */
export interface BatchOptions {
  /** Milliseconds for the whole batch (default 30 s plus 1 ms per object, ~100x what cat-file needs). */
  timeoutMs?: number
}

/** Reads every object named in `ids` (shas or revisions like `HEAD^{commit}`); null where missing. */
export function catFileBatch(repo: string, ids: string[], opts: BatchOptions = {}): Promise<(GitObject | null)[]> {
  return run(repo, ids, true, opts)
}

/** Type and size of every object in `ids`, without content; null where missing. */
export function catFileCheck(repo: string, ids: string[], opts: BatchOptions = {}): Promise<(GitObject | null)[]> {
  return run(repo, ids, false, opts)
}

function run(repo: string, ids: string[], withContent: boolean, opts: BatchOptions): Promise<(GitObject | null)[]> {
  if (ids.length === 0) return Promise.resolve([])
  const bad = ids.find((id) => /[\n\r\0]/.test(id) || id.trim() === '')
  if (bad !== undefined) return Promise.reject(new GitError(`invalid object name ${JSON.stringify(bad)}`, 'failed'))
  const args = ['cat-file', withContent ? '--batch' : '--batch-check']
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS + ids.length
  return new Promise((done, fail) => {
    const child = spawnGit(repo, args)
    const results: (GitObject | null)[] = []
    const err: Buffer[] = []
    let buf: Buffer = Buffer.alloc(0)
    let pending: { oid: string; type: string; size: number } | null = null
    let settled = false
    const finish = (e: Error | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (e) fail(e)
      else done(results)
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish(new GitError(`git cat-file timed out after ${Math.round(timeoutMs / 1000)} s reading ${ids.length} objects`, 'timeout'))
    }, timeoutMs)
    const parse = () => {
      for (;;) {
        if (pending) {
          if (buf.length < pending.size + 1) return
          results.push({ ...pending, content: Buffer.from(buf.subarray(0, pending.size)) })
          buf = buf.subarray(pending.size + 1)
          pending = null
          continue
        }
        const nl = buf.indexOf(0x0a)
        if (nl < 0) return
        const header = buf.subarray(0, nl).toString('utf8')
        buf = buf.subarray(nl + 1)
        const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(header)
        if (!m) {
          results.push(null) // `<name> missing` or `<name> ambiguous`
          continue
        }
        const obj = { oid: m[1]!, type: m[2]!, size: Number(m[3]) }
        if (withContent) pending = obj
        else results.push({ ...obj, content: Buffer.alloc(0) })
      }
    }
    child.stdout.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk
      parse()
    })
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (e: NodeJS.ErrnoException) => finish(processError(repo, args, e, null, '')))
    child.on('close', (code) => {
      if (code !== 0) return finish(processError(repo, args, null, code, Buffer.concat(err).toString('utf8')))
      if (results.length !== ids.length)
        return finish(new GitError(`git cat-file answered ${results.length} of ${ids.length} lookups`, 'failed'))
      finish(null)
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(ids.join('\n') + '\n')
  })
}
