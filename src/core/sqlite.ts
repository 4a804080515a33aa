/**
 * The one place that opens SQLite files. The desktop app runs on Electron's Node ABI and must load
 * a better-sqlite3 addon built for it; everything else (tests, CLI, `muster serve`) uses the addon
 * in node_modules. The Electron main process calls `setSqliteNativeBinding` before opening anything.
 */
import Database from 'better-sqlite3'

let nativeBinding: string | undefined = process.env.MUSTER_SQLITE_BINDING || undefined

// better-sqlite3 reads SQLITE_USE_URI once, when its addon loads (at the first database opened).
// URI file names let a hub in a read-only folder be opened `immutable` (core/hub/reader-open.ts).
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
  const db = new Database(file, {
    readonly: opts.readonly ?? false,
    fileMustExist: opts.mustExist ?? false,
    timeout: opts.busyTimeoutMs ?? 10_000,
    ...(nativeBinding ? { nativeBinding } : {})
  })
  return db
}
