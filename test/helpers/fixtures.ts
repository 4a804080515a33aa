/**
 * Test fixtures from two places:
 * - the project's own corpus, `test/fixtures/fleet/` (always there; see test/fixtures/README.md);
 * - the real upstream files, `../shared/fixtures` beside the repository (read-only; CI has them,
 *   a fresh clone does not). Suites against them use `describeUpstream`, which skips them when the
 *   folder is absent; `test/setup/upstream-notice.ts` then prints one line for the whole run.
 */
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe } from 'vitest'

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..')

/** `../shared` beside the repository (override with MUSTER_SHARED_DIR). */
export const SHARED_DIR = process.env.MUSTER_SHARED_DIR ?? resolve(REPO_ROOT, '..', 'shared')

/** `shared/fixtures`, whether or not it exists. */
export const SHARED_FIXTURES = join(SHARED_DIR, 'fixtures')

/** True when the upstream fixtures are there, so the suites against them run. */
export const HAS_SHARED_FIXTURES = existsSync(SHARED_FIXTURES)

/** Absolute path of a file or folder under `shared/fixtures/`; throws a clear error when absent. */
export function fixturePath(...parts: string[]): string {
  const p = join(SHARED_FIXTURES, ...parts)
  if (!existsSync(p))
    throw new Error(`fixture ${p} not found: the shared/ folder must sit beside the repository (or set MUSTER_SHARED_DIR)`)
  return p
}

/** Path under `shared/fixtures/` without checking it: for module-level constants of upstream suites. */
export function upstreamPath(...parts: string[]): string {
  return join(SHARED_FIXTURES, ...parts)
}

/** `describe` for suites that read `shared/fixtures`: skipped (not failed) when the folder is absent. */
export const describeUpstream: typeof describe = describe.skipIf(!HAS_SHARED_FIXTURES) as typeof describe

/** The project's own fixture fleet: `helm` (hub), `orbit`, `lumen`. */
export const CORPUS = join(REPO_ROOT, 'test', 'fixtures', 'fleet')

/** Absolute path inside the own corpus, e.g. `corpusPath('orbit', '.muse', 'build.md')`. */
export function corpusPath(...parts: string[]): string {
  return join(CORPUS, ...parts)
}

/** Text of a role file of the own corpus, e.g. `corpusRole('orbit', 'build.md')`. */
export function corpusRole(project: string, file: string): string {
  return readFileSync(corpusPath(project, '.muse', file), 'utf8')
}

/** Token that `paths.md` files of the corpus use for the fleet folder (their paths are absolute). */
export const FLEET_TOKEN = '@FLEET@'

/**
 * Copies the corpus projects into `dest` (writable copies: tests edit them) and writes the real
 * folder into every `paths.md`, as a user's own config would hold it.
 */
export function copyCorpus(dest: string, projects: readonly string[] = readdirSync(CORPUS)): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of projects) {
    const to = join(dest, name)
    cpSync(join(CORPUS, name), to, { recursive: true })
    const paths = join(to, '.muse', 'paths.md')
    if (existsSync(paths)) writeFileSync(paths, readFileSync(paths, 'utf8').replaceAll(FLEET_TOKEN, dest))
    out[name] = to
  }
  return out
}
