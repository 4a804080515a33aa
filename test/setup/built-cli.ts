/**
 * Vitest global setup: builds the `muster` CLI once per run, as `npm run build:cli` does (with
 * esbuild's metafile), laid out as in the package (`bin/`, `out/cli/`) in a folder inside the
 * repository (so packages resolve from its node_modules), for every test file that runs the real
 * binary or reads its import graph (test/helpers/built-cli.ts). Removed when the run ends.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'

const ROOT = resolve(import.meta.dirname, '..', '..')
/** Where this run's built CLI is, once built (the run's own process only). */
const BUILT_ENV = 'MUSTER_TEST_BUILT_CLI_DIR'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the run's built CLI (`bin/muster.cjs`, `out/cli/`, `out/cli/meta.json`). */
    builtCliDir: string
  }
}

/** Builds the CLI and provides its folder; returns the teardown that removes it. */
export default function setup(project: TestProject): () => void {
  // vitest runs a global setup once for the run and once per project (vitest.config.ts): the first
  // builds, the others hand out the same folder; the first one's teardown removes it at the end
  const built = process.env[BUILT_ENV]
  if (built) {
    project.provide('builtCliDir', built)
    return () => undefined
  }
  const base = join(ROOT, 'node_modules', '.cache')
  mkdirSync(base, { recursive: true })
  const dir = mkdtempSync(join(base, 'muster-cli-'))
  mkdirSync(join(dir, 'bin'))
  for (const bin of ['muster.cjs', 'muster.mjs']) copyFileSync(join(ROOT, 'bin', bin), join(dir, 'bin', bin))
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--outdir', join(dir, 'out', 'cli'), '--metafile'], {
    encoding: 'utf8'
  })
  if (r.status !== 0) throw new Error(`building the CLI failed: ${r.stderr}`)
  process.env[BUILT_ENV] = dir
  project.provide('builtCliDir', dir)
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
}
