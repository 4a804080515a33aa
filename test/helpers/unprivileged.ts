/**
 * Running the `muster` CLI where file modes apply. Root ignores read-only files and folders, and
 * CI and this machine run tests as root, so read-only faults are exercised in a child process
 * running as `nobody` (uid/gid 65534) when the tests are root, else as the current user. The CLI
 * is bundled from the sources once per test process (esbuild, like `npm run build:cli`).
 */
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll } from 'vitest'
import { REPO_ROOT } from './fixtures'

/** The unprivileged user the child runs as when the tests run as root. */
const NOBODY = 65534

let bundled: Promise<string> | null = null
afterAll(() => {
  if (bundled) rmSync(join(REPO_ROOT, 'node_modules', '.cache', `muster-test-${process.pid}`), { recursive: true, force: true })
})

/** Bundles src/cli/main.ts inside the repository (so its packages resolve) and returns the file. */
function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = join(REPO_ROOT, 'node_modules', '.cache', `muster-test-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    chmodSync(dir, 0o755)
    const outfile = join(dir, 'muster.mjs')
    await build({
      entryPoints: [join(REPO_ROOT, 'src', 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile,
      logLevel: 'warning'
    })
    chmodSync(outfile, 0o644)
    return outfile
  })()
  return bundled
}

/** True when file modes do not bind this process (root), so children must drop privileges. */
export const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0

/** Makes `dir` usable by the unprivileged child (a tmp folder is 0700 and owned by root). */
export function openToChild(dir: string, mode = 0o777): void {
  chmodSync(dir, mode)
}

/** Runs `muster ...args` unprivileged with `env` (HOME and MUSTER_HOME must be open to it). */
export async function runCliUnprivileged(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const cli = await cliBundle()
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: '/',
    ...(runningAsRoot ? { uid: NOBODY, gid: NOBODY } : {})
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)))
  return { code, out, err }
}
