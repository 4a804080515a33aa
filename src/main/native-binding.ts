/**
 * Finds the better-sqlite3 addon built for Electron's ABI. `node_modules` keeps the Node build
 * (tests, CLI, `muster serve`); `scripts/prepare-electron-native.mjs` writes the Electron build to
 * `.electron-native/<electron version>/better_sqlite3.node`, which the main process loads instead.
 */
import { join } from 'node:path'

/** Folder (under the app root) holding per-Electron-version builds; gitignored. */
export const NATIVE_DIR = '.electron-native'
/** The addon's file name. */
export const NATIVE_FILE = 'better_sqlite3.node'

/** Where the Electron build for `electronVersion` lives under `appRoot`. */
export function electronNativeBindingPath(appRoot: string, electronVersion: string): string {
  return join(appRoot, NATIVE_DIR, electronVersion, NATIVE_FILE)
}

/**
 * Where unpacked files of the app live: beside a packaged `app.asar` in `app.asar.unpacked`
 * (electron-builder's `asarUnpack`; native code cannot load from inside an asar), else the root.
 */
export function unpackedRoot(appRoot: string): string {
  return /\.asar[\\/]?$/.test(appRoot) ? `${appRoot.replace(/[\\/]$/, '')}.unpacked` : appRoot
}

/** Inputs for `resolveNativeBinding`. */
export interface NativeBindingInput {
  /** The app root (`app.getAppPath()`: the folder holding package.json, or the packaged app.asar). */
  appRoot: string
  /** `process.versions.electron`. */
  electronVersion: string
  env: Record<string, string | undefined>
  exists: (path: string) => boolean
}

/**
 * The addon path to hand to `setSqliteNativeBinding`: `MUSTER_SQLITE_BINDING` when set, else the
 * prepared Electron build. Throws a clear, actionable error when neither exists, instead of
 * letting better-sqlite3 fail later with an ABI mismatch from node_modules' Node build.
 */
export function resolveNativeBinding({ appRoot, electronVersion, env, exists }: NativeBindingInput): string {
  const override = env.MUSTER_SQLITE_BINDING?.trim()
  if (override) {
    if (!exists(override)) throw new Error(`MUSTER_SQLITE_BINDING points at a missing file: ${override}`)
    return override
  }
  const path = electronNativeBindingPath(unpackedRoot(appRoot), electronVersion)
  if (!exists(path)) {
    throw new Error(
      `The SQLite addon for Electron ${electronVersion} is missing (${path}). ` +
        'Run `npm run prepare:electron-native` (or start the app with `npm start`, which does it), ' +
        'or use the browser UI with `npm run serve`.'
    )
  }
  return path
}
