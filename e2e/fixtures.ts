/**
 * Playwright fixtures: a `muster serve` process on a fresh home (optionally with the demo fleet),
 * its URL with the token, and a helper to run the CLI against the same home.
 */
import { test as base, expect } from '@playwright/test'
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'muster.cjs')

/** A running `muster serve` for one test. */
export interface Served {
  home: string
  /** URL with the token (what the operator opens). */
  openUrl: string
  /** Base URL without the token. */
  baseUrl: string
  /** Runs the CLI against this home and returns parsed --json output. */
  cli: (args: string[]) => unknown
}

/**
 * The environment of every process a test starts: no Muster home from the caller's shell, and a user
 * home of the test's own (beside `home`), so the machine's real `~/.mempalace` (a default hub, its
 * config) never shows up in a test, and a test never writes there.
 */
export function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const user = join(home, '..', 'user-home')
  mkdirSync(user, { recursive: true })
  // MUSTER_NO_BACKGROUND: no detached needs-summary refresh outlives a test and writes into its folder
  // while the folder is removed (ENOTEMPTY in CI)
  const env: NodeJS.ProcessEnv = { ...process.env, MUSTER_HOME: '', HOME: user, USERPROFILE: user, MUSTER_NO_BACKGROUND: '1' }
  delete env.MEMPALACE_PALACE_PATH
  delete env.MEMPAL_PALACE_PATH
  // the harnesses' own folders follow HOME only: no real transcripts are read
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME']) delete env[k]
  return env
}

/** Starts `muster serve` on `home` (`env` adds to its isolated environment) and resolves with its URLs once it prints them. */
export async function startServe(home: string, env: NodeJS.ProcessEnv = {}): Promise<{ proc: ChildProcess; openUrl: string }> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--home', home, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...isolatedEnv(home), ...env }
  })
  let out = ''
  let err = ''
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const openUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`muster serve did not start: ${err}`)), 10_000)
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /"url":\s*"([^"]+)"/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolveUrl(m[1]!)
      }
    })
    proc.once('exit', (code) => reject(new Error(`muster serve exited with ${code}: ${err}`)))
  })
  return { proc, openUrl }
}

/**
 * Stops a `muster serve` and waits until it has exited (bounded): Node writes its compile cache into
 * the test's user home on the way out, which would race the removal of the test's folder.
 */
export async function stopServe(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = new Promise<void>((r) => proc.once('exit', () => r()))
  proc.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((r) => (timer = setTimeout(r, 15_000)))
  await Promise.race([exited, late])
  clearTimeout(timer)
  if (proc.exitCode === null && proc.signalCode === null) {
    proc.kill('SIGKILL')
    await exited
  }
}

function cliFor(home: string) {
  return (args: string[]): unknown => {
    const out = execFileSync(process.execPath, [BIN, ...args, '--home', home, '--json'], {
      encoding: 'utf8',
      env: isolatedEnv(home)
    })
    return JSON.parse(out)
  }
}

type Fixtures = { served: Served; demo: Served; workDir: string }
type WorkerFixtures = { shownDemo: Served }

/** Lays out the demo fleet beside `home` and serves it; resolves with the served app and its stop. */
async function serveDemo(workDir: string): Promise<{ served: Served; stop: () => Promise<void> }> {
  const home = join(workDir, 'home')
  mkdirSync(home)
  cliFor(home)(['demo', join(workDir, 'fleet')])
  const { proc, openUrl } = await startServe(home)
  return { served: { home, openUrl, baseUrl: openUrl.replace(/\?token=.*$/, ''), cli: cliFor(home) }, stop: () => stopServe(proc) }
}

/**
 * Tests get `served` (empty home) or `demo` (home with the demo fleet), and a scratch `workDir`.
 * `shownDemo` is one demo fleet served for all the tests of a worker that only look at it
 * (navigate, scan, take screenshots) and change nothing in it.
 */
export const test = base.extend<Fixtures, WorkerFixtures>({
  shownDemo: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'muster-e2e-shown-'))
      const { served, stop } = await serveDemo(dir)
      await use(served)
      await stop()
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    },
    { scope: 'worker' }
  ],
  // eslint-disable-next-line no-empty-pattern
  workDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-e2e-'))
    await use(dir)
    // a detached process (a background summary refresh, its compile cache) may still be writing: retry
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  },
  served: async ({ workDir }, use) => {
    const home = join(workDir, 'home')
    mkdirSync(home)
    const { proc, openUrl } = await startServe(home)
    await use({ home, openUrl, baseUrl: openUrl.replace(/\?token=.*$/, ''), cli: cliFor(home) })
    await stopServe(proc)
  },
  demo: async ({ workDir }, use) => {
    const { served, stop } = await serveDemo(workDir)
    await use(served)
    await stop()
  }
})

export { expect }
