/**
 * The one place that opens SQLite files. The desktop app runs on Electron's Node ABI and must load
 * a better-sqlite3 addon built for it; everything else (tests, CLI, `muster serve`) uses the addon
 * in node_modules. The Electron main process calls `setSqliteNativeBinding` before opening anything.
 */
import { createRequire } from 'node:module'
import Database from 'better-sqlite3'

let nativeBinding: string | undefined = process.env.MUSTER_SQLITE_BINDING || undefined
let installed: string | null | undefined

/**
 * The addon installed with better-sqlite3 (its default), found directly: left to itself,
 * better-sqlite3 asks the `bindings` package, which walks a stack trace and tries a dozen paths
 * (~10 ms of every CLI run). Null when not found there; better-sqlite3 then searches as usual.
 */
function installedBinding(): string | null {
  if (installed === undefined) {
    try {
      installed = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node')
    } catch {
      installed = null
    }
  }
  return installed
}

// better-sqlite3 reads SQLITE_USE_URI once, when its addon loads (at the first database opened).
// URI file names let a hub in a read-only folder be opened `immutable` (core/hub/store/reader-open.ts).
// Muster only ever opens absolute paths, so no file name is mistaken for a URI.
process.env.SQLITE_USE_URI ??= '1'

/** Points better-sqlite3 at a specific compiled addon (an Electron-ABI build); undefined resets. */
export function setSqliteNativeBinding(path: string | undefined): void {
  nativeBinding = path
}

/** A better-sqlite3 connection. */
export type Db = Database.Database

/** Options for `openDatabase`. */
export interface OpenOptions {
  readonly?: boolean
  /** Fail instead of creating the file (better-sqlite3's `fileMustExist`). */
  mustExist?: boolean
  /** Busy timeout in ms; MemPalace uses 10 s. */
  busyTimeoutMs?: number
}

/** Opens a SQLite file with the configured native binding and a busy timeout. */
export function openDatabase(file: string, opts: OpenOptions = {}): Db {
  const binding = nativeBinding ?? installedBinding()
  try {
    return new Database(file, {
      readonly: opts.readonly ?? false,
      fileMustExist: opts.mustExist ?? false,
      timeout: opts.busyTimeoutMs ?? 10_000,
      ...(binding ? { nativeBinding: binding } : {})
    })
  } catch (err) {
    throw addonError(err, binding) ?? err
  }
}

/** Node.js lines by the NODE_MODULE_VERSION (ABI) their native addons are built for. */
const NODE_ABI: Record<string, string> = { '108': '18', '115': '20', '120': '21', '127': '22', '131': '23', '137': '24', '141': '25' }

/** An addon's ABI as the operator knows it: `Node.js 20 (NODE_MODULE_VERSION 115)`. */
const abiName = (abi: string): string =>
  NODE_ABI[abi] ? `Node.js ${NODE_ABI[abi]} (NODE_MODULE_VERSION ${abi})` : `NODE_MODULE_VERSION ${abi}`

/** The SQLite addon cannot be loaded by this runtime: which one it was built for, and what to run. */
export class SqliteAddonError extends Error {
  /** The message already says what Node's own text says (which ABI, what to run): printers leave the cause out. */
  readonly causeShown = true
  constructor(message: string, cause: unknown) {
    super(message, { cause })
    this.name = 'SqliteAddonError'
  }
}

/**
 * The load failure of better-sqlite3's addon said plainly (Node's own text starts "The module
 * '…/better_sqlite3.node'" and puts the fix five lines further): one line naming the Node.js the
 * addon was built for and the one running, and the command that fixes it. Null for any other error.
 */
export function addonError(err: unknown, binding: string | null | undefined): SqliteAddonError | null {
  const message = err instanceof Error ? err.message : ''
  const code = (err as NodeJS.ErrnoException | null)?.code
  const abi = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(message)
  const missing = /Could not locate the bindings file|Cannot find module '[^']*better_sqlite3\.node'/.test(message)
  if (!abi && !missing && code !== 'ERR_DLOPEN_FAILED') return null
  const electron = process.versions.electron
  const running = electron
    ? `Electron ${electron} (NODE_MODULE_VERSION ${process.versions.modules})`
    : `Node.js ${process.version} (NODE_MODULE_VERSION ${process.versions.modules})`
  // a source checkout: the addon lives in <root>/node_modules/better-sqlite3
  const root = binding?.includes('node_modules') ? binding.slice(0, binding.lastIndexOf('node_modules') - 1) : null
  const fix = electron
    ? 'run: npm run prepare:electron-native'
    : root
      ? `run: npm rebuild better-sqlite3 (in ${root})`
      : 'install Node.js 22 or 24 (the LTS lines this build carries an addon for)'
  const what = abi
    ? `the SQLite addon (better-sqlite3) was built for ${abiName(abi[1]!)}, not for this ${running}`
    : missing
      ? 'the SQLite addon (better-sqlite3) is not built'
      : `the SQLite addon (better-sqlite3) cannot be loaded by this ${running}`
  return new SqliteAddonError(`${what}\n${fix}`, err)
}
