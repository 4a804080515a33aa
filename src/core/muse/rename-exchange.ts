/**
 * Atomic exchange of two names in one folder: Linux `renameat2(RENAME_EXCHANGE)` and macOS
 * `renamex_np(RENAME_SWAP)`, called through koffi (a maintained FFI with prebuilt binaries for
 * Node and Electron; Node itself has no binding). Unlike `rename`, an exchange never unlinks: what
 * was at the path ends up under the other name, so a version another writer renamed over the path
 * an instant before is handed back instead of destroyed (the swap's window in `safe-write.ts`).
 *
 * Where it is missing (Windows, a system without the call, a file system that refuses it such as
 * some network mounts, the desktop app's bundled CLI without koffi), callers fall back to `rename`.
 * `MUSTER_NO_EXCHANGE=1` forces that fallback (tests of it).
 */
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type * as Koffi from 'koffi'

/** One bound system call: 0 on success, -1 with `errno()` set. */
interface Bound {
  call: (a: string, b: string) => number
  errno: () => number
  /** errno values meaning "this file system or system cannot exchange". */
  unsupported: Set<number>
  codes: Record<string, number>
}

let bound: Bound | null | undefined
/** Folders where the file system refused an exchange: not asked again by this process. */
const refused = new Set<string>()

/** Binds the platform's exchange call once; null when there is none. */
function bind(): Bound | null {
  if (bound !== undefined) return bound
  bound = null
  if (process.env.MUSTER_NO_EXCHANGE === '1') return bound
  if (process.platform !== 'linux' && process.platform !== 'darwin') return bound
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi
    const codes = koffi.os.errno as Record<string, number>
    const unsupported = new Set(['EINVAL', 'ENOSYS', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV'].map((c) => codes[c]).filter((n) => n !== undefined))
    const errno = (): number => koffi.errno()
    if (process.platform === 'linux') {
      const lib = loadFirst(koffi, ['libc.so.6', 'libc.so'])
      const renameat2 = lib.func('int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags)')
      const AT_FDCWD = -100
      const RENAME_EXCHANGE = 2
      bound = { call: (a, b) => renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) as number, errno, unsupported, codes }
    } else {
      const lib = koffi.load('/usr/lib/libSystem.B.dylib')
      const renamex = lib.func('int renamex_np(const char *from, const char *to, unsigned int flags)')
      const RENAME_SWAP = 2
      bound = { call: (a, b) => renamex(a, b, RENAME_SWAP) as number, errno, unsupported, codes }
    }
  } catch {
    bound = null // no koffi for this platform, or no such call in its C library
  }
  return bound
}

function loadFirst(koffi: typeof Koffi, names: string[]): ReturnType<typeof Koffi.load> {
  let last: unknown
  for (const name of names) {
    try {
      return koffi.load(name)
    } catch (err) {
      last = err
    }
  }
  throw last
}

/** True when `exchangeSync` may work in the folder of `path` (a refusal there is remembered). */
export function canExchange(path: string): boolean {
  return bind() !== null && !refused.has(dirname(path))
}

/**
 * Exchanges `a` and `b` (both must exist, in one folder) atomically. Returns false, changing
 * nothing, when the system or the file system cannot; throws an errno error (code `ENOENT`, ...)
 * like `fs.renameSync` for anything else.
 */
export function exchangeSync(a: string, b: string): boolean {
  const sys = bind()
  if (!sys || refused.has(dirname(b))) return false
  if (sys.call(a, b) === 0) return true
  const n = sys.errno()
  if (sys.unsupported.has(n)) {
    refused.add(dirname(b))
    return false
  }
  const code = Object.keys(sys.codes).find((k) => sys.codes[k] === n) ?? `errno ${n}`
  const err = new Error(`${code}: exchange failed, '${a}' <-> '${b}'`) as NodeJS.ErrnoException
  err.code = code
  err.errno = -n
  err.syscall = 'renameat2'
  throw err
}
