/**
 * `bin/muster.cjs` turns on V8's compile cache in the user's cache folder: a run fills it, and a
 * folder that cannot be written (or a home that is not there) only costs the speed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'

const bin = builtCli()

/** Runs `muster --help` with `env` on top of the test's environment (NODE_COMPILE_CACHE cleared). */
function help(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, '--help'], {
    env: { ...process.env, NODE_COMPILE_CACHE: '', ...env },
    encoding: 'utf8',
    timeout: 60_000
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : []
}

describe('V8 compile cache', () => {
  it("a run fills the cache under the user's cache folder (XDG_CACHE_HOME)", () => {
    const cache = tmpDir()
    const r = help({ XDG_CACHE_HOME: cache, MUSTER_COMPILE_CACHE: '' })
    expect(r.status, r.stderr).toBe(0)
    if (process.platform === 'linux') expect(filesUnder(join(cache, 'muster', 'v8-compile-cache')).length).toBeGreaterThan(0)
  })

  it('MUSTER_COMPILE_CACHE names the folder; 0 turns it off', () => {
    const cache = join(tmpDir(), 'cc')
    expect(help({ MUSTER_COMPILE_CACHE: cache }).status).toBe(0)
    expect(filesUnder(cache).length).toBeGreaterThan(0)
    const off = tmpDir()
    expect(help({ MUSTER_COMPILE_CACHE: '0', XDG_CACHE_HOME: off }).status).toBe(0)
    expect(filesUnder(off)).toEqual([])
  })

  it('a folder that cannot be made (a file in its place) changes nothing but the speed', () => {
    const file = join(tmpDir(), 'not-a-folder')
    writeFileSync(file, 'x')
    const r = help({ MUSTER_COMPILE_CACHE: join(file, 'cc') })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/Usage: muster/)
    expect(r.stderr).toBe('')
  })
})
