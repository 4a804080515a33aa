import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { builtCliOut } from '../../test/helpers/built-cli'

// The real `muster` process, built from the current sources by `npm run build:cli`'s script (once per run).
const CLI = join(builtCliOut(), 'muster.cjs')

/** Runs the CLI; a run that outlives the timeout is killed and reported as hung. */
function muster(...args: string[]): { code: number | null; err: string; hung: boolean } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 60_000, // a spinning mkdir never ends; a busy machine may still take a while
    killSignal: 'SIGKILL',
    env: { ...process.env, MUSTER_HOME: '' }
  })
  return { code: r.status, err: r.stderr, hung: r.signal === 'SIGKILL' }
}

describe('every folder Muster creates fails fast with a clear error (Node recursive mkdir spins on /proc)', () => {
  it.each([
    ['hubs add --create', (home: string) => ['hubs', 'add', '/proc/nope', '--create', '--home', home], '/proc/nope', 'folder /proc/nope'],
    // /proc/1 refuses writing outright (EPERM even for root), so that is found before any mkdir.
    [
      'hubs add --create, in a process folder',
      (home: string) => ['hubs', 'add', '/proc/1/nope', '--create', '--home', home],
      '/proc/1/nope',
      'hub /proc/1/nope/logstream.sqlite3'
    ],
    [
      'hubs add --create, deeper',
      (home: string) => ['hubs', 'add', '/proc/self/fd/nope/palace', '--create', '--home', home],
      '/proc/self/fd/nope/palace',
      'folder /proc/self/fd/nope/palace'
    ],
    ['demo', (home: string) => ['demo', '/proc/self/nope', '--home', home], '/proc/self/nope', 'folder /proc/self/nope'],
    ['the state home', () => ['projects', 'list', '--home', '/proc/1/nope/home'], '/proc/1/nope/home', 'folder /proc/1/nope/home']
  ])('%s', (_name, args, path, what) => {
    const r = muster(...args(tmpDir()))
    expect(r.hung).toBe(false)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(new RegExp(`^muster: cannot create ${what}: [^\\n]+\\n$`))
    expect(existsSync(path)).toBe(false)
  })
})

describe('muster serve stays responsive when asked to create a folder it cannot', () => {
  it('answers hubs.add --create and demo.create under /proc with a 4xx error, then keeps serving', async () => {
    const token = 'create-paths-token-0123456789'
    const child = spawn(process.execPath, [CLI, 'serve', '--home', tmpDir(), '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (d) => {
          out += d
          const origin = /serving the dashboard at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1]
          if (origin) resolve(origin)
        })
        child.once('exit', (code) => reject(new Error(`muster serve exited ${code}`)))
        setTimeout(() => reject(new Error(`muster serve did not start: ${out}`)), 15_000).unref()
      })
      const call = async (method: string, input: object): Promise<{ status: number; body: { error?: string } }> => {
        const res = await fetch(`${url}/api/call/${method}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(10_000)
        })
        return { status: res.status, body: (await res.json()) as { error?: string } }
      }
      const hub = await call('hubs.add', { palace: '/proc/nope', create: true })
      expect(hub.status).toBe(400)
      expect(hub.body.error).toMatch(/^cannot create folder \/proc\/nope: /)
      const demo = await call('demo.create', { dir: '/proc/self/nope' })
      expect(demo.status).toBe(400)
      expect(demo.body.error).toMatch(/^cannot create folder \/proc\/self\/nope: /)
      expect((await call('app.info', {})).status).toBe(200)
    } finally {
      child.kill('SIGKILL')
    }
  })
})
