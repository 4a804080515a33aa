/**
 * Paths to the shared upstream fixtures (`../shared/fixtures` beside the repository root, read-only).
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..')

/** `../shared` beside the repository (override with MUSTER_SHARED_DIR). */
export const SHARED_DIR = process.env.MUSTER_SHARED_DIR ?? resolve(REPO_ROOT, '..', 'shared')

/** Absolute path of a file or folder under `shared/fixtures/`; throws a clear error when absent. */
export function fixturePath(...parts: string[]): string {
  const p = join(SHARED_DIR, 'fixtures', ...parts)
  if (!existsSync(p)) throw new Error(`fixture ${p} not found: the shared/ folder must sit beside the repository (or set MUSTER_SHARED_DIR)`)
  return p
}
