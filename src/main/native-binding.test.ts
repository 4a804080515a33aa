import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { electronNativeBindingPath, resolveNativeBinding, unpackedRoot } from './native-binding'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

describe('resolveNativeBinding', () => {
  const base = { appRoot: '/app', electronVersion: '45.5.0', env: {} }
  it('uses the prepared Electron build', () => {
    const path = electronNativeBindingPath('/app', '45.5.0')
    expect(path).toBe(join('/app', '.electron-native', '45.5.0', 'better_sqlite3.node'))
    expect(resolveNativeBinding({ ...base, exists: (p) => p === path })).toBe(path)
  })
  it('prefers MUSTER_SQLITE_BINDING', () => {
    expect(resolveNativeBinding({ ...base, env: { MUSTER_SQLITE_BINDING: '/x/addon.node' }, exists: () => true })).toBe('/x/addon.node')
    expect(() => resolveNativeBinding({ ...base, env: { MUSTER_SQLITE_BINDING: '/x/addon.node' }, exists: () => false })).toThrow(
      /missing file/
    )
  })
  it('loads the packaged addon from app.asar.unpacked (asarUnpack), never from inside the asar', () => {
    const appRoot = '/opt/Muster/resources/app.asar'
    const unpacked = join('/opt/Muster/resources/app.asar.unpacked', '.electron-native', '45.5.0', 'better_sqlite3.node')
    expect(resolveNativeBinding({ ...base, appRoot, exists: (p) => p === unpacked })).toBe(unpacked)
    expect(unpackedRoot('C:\\Muster\\resources\\app.asar')).toBe('C:\\Muster\\resources\\app.asar.unpacked')
    expect(unpackedRoot('/src/muster')).toBe('/src/muster')
  })
  it('explains how to fix a missing build', () => {
    expect(() => resolveNativeBinding({ ...base, exists: () => false })).toThrow(/npm run prepare:electron-native/)
  })
})

describe('scripts/prepare-electron-native.mjs', () => {
  it('writes exactly where the main process looks', () => {
    const printed = execFileSync(process.execPath, [join(ROOT, 'scripts/prepare-electron-native.mjs'), '--print-path'], {
      encoding: 'utf8'
    }).trim()
    const version = JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')).version as string
    expect(printed).toBe(electronNativeBindingPath(ROOT, version))
  })
})
