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
  const db = new Database(file, {
    readonly: opts.readonly ?? false,
    fileMustExist: opts.mustExist ?? false,
    timeout: opts.busyTimeoutMs ?? 10_000,
    ...(binding ? { nativeBinding: binding } : {})
  })
  return db
}
