/**
 * The one way Muster creates folders. Node's `mkdir(path, {recursive: true})` reads ENOENT as "the
 * parent is missing", creates the parent (EEXIST: fine) and retries the child, forever, on file
 * systems that answer ENOENT for a child of an existing folder (`/proc`, stale mounts): 100% CPU,
 * a frozen event loop (sync) or a lost libuv thread (async). Here the missing tail is found first
 * with `stat`, then each folder is made once without `recursive`: at most one mkdir per path part,
 * and any refusal is a clear one-line error.
 */
import { mkdirSync, promises as fs, statSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { ApiError } from '../shared/api-error'

/** Options of `makeDir` / `makeDirSync`. */
export interface MakeDirOptions {
  /** Mode of every folder created (the umask applies), as `mkdir`'s. */
  mode?: number
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many symbolic links',
  // mkdir of a child whose parent was just seen to be a folder: a virtual file system such as
  // /proc, or a mount that went away.
  ENOENT: 'this file system does not allow creating a folder there'
}

function refusal(target: string, at: string, err: unknown): ApiError {
  const code = (err as NodeJS.ErrnoException).code ?? ''
  const reason = REASONS[code] ?? (err as Error).message
  const where = at === target ? '' : ` (at ${at})`
  const kind = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'forbidden' : 'invalid_input'
  return new ApiError(`cannot create folder ${target}: ${reason}${code ? ` (${code})` : ''}${where}`, kind)
}

function notAFolder(target: string, at: string): ApiError {
  return new ApiError(`cannot create folder ${target}: ${at} exists and is not a folder`, 'invalid_input')
}

// ENOTDIR: a part of the path is a file; walking up finds it and names it.
const missing = (err: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')

/** A stat of `p` that failed: null when nothing is there, else the refusal to create `target`. */
function absent(target: string, p: string, err: unknown): null {
  if (missing(err)) return null
  throw refusal(target, p, err)
}

/**
 * One step of the walk up from `target`: true when `dir` is a folder (the walk stops there), false
 * when it is missing and must be made. Throws when it is not a folder or nothing above exists.
 */
function foundFolder(target: string, dir: string, st: Stats | null): boolean {
  if (st && !st.isDirectory()) throw notAFolder(target, dir)
  if (st) return true
  if (dirname(dir) === dir) throw new ApiError(`cannot create folder ${target}: ${dir} does not exist`, 'invalid_input')
  return false
}

/** The error for a mkdir of `dir` that failed although its parent is a folder. */
function mkdirRefusal(target: string, dir: string, err: unknown, now: Stats | null): ApiError | null {
  if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return refusal(target, dir, err)
  // Made meanwhile by a racing process: fine when it is a folder. Else a file or a dangling link.
  return now?.isDirectory() ? null : notAFolder(target, dir)
}

/**
 * Creates `path` and its missing parents (like `mkdir -p`), synchronously; returns the absolute
 * path. Bounded: one stat and at most one mkdir per path part. Throws a one-line ApiError.
 */
export function makeDirSync(path: string, opts: MakeDirOptions = {}): string {
  const target = resolve(path)
  const statOf = (p: string): Stats | null => {
    try {
      return statSync(p)
    } catch (err) {
      return absent(target, p, err)
    }
  }
  const tail: string[] = []
  for (let dir = target; !foundFolder(target, dir, statOf(dir)); dir = dirname(dir)) tail.unshift(dir)
  for (const dir of tail) {
    try {
      mkdirSync(dir, { mode: opts.mode })
    } catch (err) {
      const refused = mkdirRefusal(target, dir, err, statOf(dir))
      if (refused) throw refused
    }
  }
  return target
}

/** `makeDirSync` without blocking the event loop (same bounds, same errors). */
export async function makeDir(path: string, opts: MakeDirOptions = {}): Promise<string> {
  const target = resolve(path)
  const statOf = (p: string): Promise<Stats | null> => fs.stat(p).catch((err: unknown) => absent(target, p, err))
  const tail: string[] = []
  for (let dir = target; !foundFolder(target, dir, await statOf(dir)); dir = dirname(dir)) tail.unshift(dir)
  for (const dir of tail) {
    try {
      await fs.mkdir(dir, { mode: opts.mode })
    } catch (err) {
      const refused = mkdirRefusal(target, dir, err, await statOf(dir))
      if (refused) throw refused
    }
  }
  return target
}
