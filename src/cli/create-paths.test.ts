import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'

// The real `muster` process, built from the current sources by `npm run build:cli`'s script
// (into out/, so its external packages resolve from node_modules).
const ROOT = resolve(import.meta.dirname, '..', '..')
const OUT = join(ROOT, 'out', 'test-cli', String(process.pid))
const CLI = join(OUT, 'muster.mjs')

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--outdir', OUT], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
}, 60_000)
afterAll(() => rmSync(OUT, { recursive: true, force: true }))

/** Runs the CLI; a run that outlives the timeout is killed and reported as hung. */
function muster(...args: string[]): { code: number | null; err: string; hung: boolean; ms: number } {
  const started = Date.now()
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 15_000, killSignal: 'SIGKILL', env: { ...process.env, MUSTER_HOME: '' } })
  return { code: r.status, err: r.stderr, hung: r.signal === 'SIGKILL', ms: Date.now() - started }
}

describe('every folder Muster creates fails fast with a clear error (Node recursive mkdir spins on /proc)', () => {
  it.each([
    ['hubs add --create', (home: string) => ['hubs', 'add', '/proc/nope', '--create', '--home', home], '/proc/nope'],
    ['hubs add --create, deeper', (home: string) => ['hubs', 'add', '/proc/self/fd/nope/palace', '--create', '--home', home], '/proc/self/fd/nope/palace'],
    ['demo', (home: string) => ['demo', '/proc/self/nope', '--home', home], '/proc/self/nope'],
    ['the state home', () => ['projects', 'list', '--home', '/proc/1/nope/home'], '/proc/1/nope/home']
  ])('%s', (_name, args, path) => {
    const r = muster(...args(tmpDir()))
    expect(r.hung).toBe(false)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(new RegExp(`^muster: cannot create folder ${path}: [^\\n]+\\n$`))
    expect(existsSync(path)).toBe(false)
  })
})
