/**
 * The packaging: the fuses read back from electron-builder's configuration, the static check of
 * that configuration (scripts/check-packaging.mjs) and what it catches, and `npm run dist` on a
 * machine without the Electron binary (one line, non-zero, nothing changed).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

interface Check {
  checkPackaging(opts?: { root?: string; built?: boolean; config?: Record<string, unknown> }): Promise<string[]>
  selectedBy(patterns: string[], path: string): boolean
  extraResourceTarget(config: Record<string, unknown>, path: string): string | null
}
const check = (await import(pathToFileURL(join(ROOT, 'scripts/check-packaging.mjs')).href)) as Check
const builderConfig = (await import(pathToFileURL(join(ROOT, 'electron-builder.config.mjs')).href)) as {
  default: Record<string, unknown> & { electronFuses: Record<string, boolean>; files: string[]; asarUnpack: string[] }
  FUSES: Record<string, boolean>
}
const config = builderConfig.default

describe('the fuses flipped at package time', () => {
  it('are the hardened set, read back from the packaging configuration', () => {
    expect(config.electronFuses).toBe(builderConfig.FUSES)
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false
    })
  })

  it('are the names electron-builder passes to @electron/fuses', () => {
    const types = readFileSync(join(ROOT, 'node_modules/app-builder-lib/out/configuration.d.ts'), 'utf8')
    const block = types.slice(types.indexOf('export interface FuseOptionsV1'))
    for (const fuse of Object.keys(config.electronFuses)) expect(block, fuse).toMatch(new RegExp(`\\b${fuse}\\?: boolean`))
  })
})

describe('scripts/check-packaging.mjs', () => {
  it('passes on the repository', async () => {
    expect(await check.checkPackaging({ root: ROOT })).toEqual([])
  })

  it.skipIf(!existsSync(join(ROOT, 'out/main/index.js')) || !existsSync(join(ROOT, 'out/cli/muster.cjs')))(
    'passes on the build: every built file ships',
    async () => {
      expect(await check.checkPackaging({ root: ROOT, built: true })).toEqual([])
    }
  )

  it('catches a weakened fuse, a packed addon, a missing entry, a lost target', async () => {
    const broken = async (change: Record<string, unknown>): Promise<string[]> =>
      check.checkPackaging({ root: ROOT, config: { ...config, ...change } })
    expect(await broken({ electronFuses: { ...config.electronFuses, runAsNode: true } })).toEqual(['fuse runAsNode must be off (is on)'])
    expect(await broken({ electronFuses: { ...config.electronFuses, grantFileProtocolExtraPrivileges: undefined } })).toEqual([
      'fuse grantFileProtocolExtraPrivileges must be off (is unset)'
    ])
    expect(await broken({ asarUnpack: [] })).toEqual([
      'asarUnpack must unpack the Electron-ABI SQLite addon (native code cannot load from an asar)',
      "asarUnpack must unpack koffi's addon (node_modules/@koromix/**)"
    ])
    expect(await broken({ npmRebuild: true })).toHaveLength(1)
    expect(await broken({ asar: false })).toHaveLength(1)
    expect(await broken({ files: config.files.filter((f) => f !== 'out/preload/**') })).toEqual([
      'files must include out/preload/index.cjs'
    ])
    expect(await broken({ files: [...config.files, '!out/main/digest-worker.js'] })).toEqual([
      'files must include out/main/digest-worker.js'
    ])
    expect(await broken({ linux: { ...(config.linux as object), target: ['AppImage'] } })).toEqual([
      'linux targets must be AppImage and deb'
    ])
    expect(await broken({ protocols: [] })).toEqual(['protocols must register the muster:// scheme'])
  })

  it('reads electron-builder globs as electron-builder does', () => {
    expect(check.selectedBy(['out/main/**'], 'out/main/chunks/a.js')).toBe(true)
    expect(check.selectedBy(['out/main/**', '!**/*.map'], 'out/main/index.js.map')).toBe(false)
    expect(check.selectedBy(['!node_modules/better-sqlite3/{build,deps,src}/**'], 'node_modules/better-sqlite3/deps/sqlite3.c')).toBe(false)
    expect(check.selectedBy(['**/*', '!node_modules/better-sqlite3/{build,deps}/**'], 'node_modules/better-sqlite3/lib/index.js')).toBe(
      true
    )
    expect(check.selectedBy(['resources/rules'], 'resources/rules/shared-brain.md')).toBe(true)
    expect(check.selectedBy(['out/main/**'], 'out/mainx/a.js')).toBe(false)
    expect(check.extraResourceTarget(config, 'out/cli/chunks-x.mjs')).toBe('cli/out/cli/chunks-x.mjs')
    expect(check.extraResourceTarget(config, 'out/cli/meta.json')).toBeNull()
  })
})

/** Everything `npm run dist` could touch, as names, sizes and times. */
function snapshot(): string {
  const lines: string[] = []
  for (const dir of ['.', 'out', 'out/main', 'out/cli', 'node_modules/electron', 'node_modules/better-sqlite3/build/Release']) {
    const full = join(ROOT, dir)
    if (!existsSync(full)) continue
    for (const name of readdirSync(full).sort()) {
      const st = statSync(join(full, name))
      lines.push(`${dir}/${name} ${st.isDirectory() ? 'dir' : st.size} ${st.mtimeMs}`)
    }
  }
  return lines.join('\n')
}

function electronBinaryInstalled(): boolean {
  try {
    const dir = join(ROOT, 'node_modules/electron')
    return existsSync(join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim()))
  } catch {
    return false
  }
}

describe('npm run dist without the Electron binary', () => {
  // Where the binary is missing (this machine, CI): an unreachable mirror makes the download fail fast.
  it.skipIf(electronBinaryInstalled())('stops with one line, a non-zero exit and nothing changed', () => {
    const cache = mkdtempSync(join(tmpdir(), 'muster-electron-cache-'))
    const before = snapshot()
    const hadDist = existsSync(join(ROOT, 'dist'))
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/dist.mjs'), '--dir'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: cache, ELECTRON_OVERRIDE_DIST_PATH: '' }
      })
      expect(r.status).not.toBe(0)
      expect(r.stdout).toBe('')
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(
        /^npm run dist: the Electron \d+\.\d+\.\d+ binary is missing and could not be downloaded \(.+\); nothing was built or changed/
      )
      expect(snapshot()).toBe(before)
      expect(existsSync(join(ROOT, 'dist'))).toBe(hadDist)
      expect(readdirSync(cache)).toEqual([])
    } finally {
      rmSync(cache, { recursive: true, force: true })
    }
  })
})
