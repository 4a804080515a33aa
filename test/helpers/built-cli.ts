/**
 * The real `muster` binary for process tests: `bin/muster.cjs` (and its older `bin/muster.mjs`) and the CLI bundle built by
 * `scripts/build-cli.mjs`, laid out as in the package (`bin/`, `out/cli/`) in a folder inside the
 * repository (so packages resolve from its node_modules), removed after the test file.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')

/** Builds the CLI once for this test file; returns the path of its `bin/muster.cjs`. */
export function builtCli(): string {
  const base = join(ROOT, 'node_modules', '.cache')
  mkdirSync(base, { recursive: true })
  const dir = mkdtempSync(join(base, 'muster-cli-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'bin'))
  for (const bin of ['muster.cjs', 'muster.mjs']) copyFileSync(join(ROOT, 'bin', bin), join(dir, 'bin', bin))
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--outdir', join(dir, 'out', 'cli')], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`building the CLI failed: ${r.stderr}`)
  return join(dir, 'bin', 'muster.cjs')
}
