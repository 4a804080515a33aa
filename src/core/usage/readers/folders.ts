/**
 * Where harnesses keep their records, from an environment: each root joined from HOME (or
 * USERPROFILE) and the harness's own variable, `/`-separated paths as Node's `path` joins them.
 * Pure (no file access): which files exist is the scanner's business.
 */
import { join } from 'node:path'
import type { FolderEnv } from './types'

/** The user's home folder in `env`, or null. */
export function homeOf(env: FolderEnv): string | null {
  return env.HOME || env.USERPROFILE || null
}

/** `<variable>` when set, else `<home>/<fallback>`, then `sub` inside it; none without either. */
export function rootFrom(env: FolderEnv, variable: string, fallback: string, ...sub: string[]): string[] {
  const base = env[variable] || (homeOf(env) ? join(homeOf(env)!, fallback) : null)
  return base ? [join(base, ...sub)] : []
}

/** A UUID-like session id (letters, digits, `-` and `_`). */
export const SESSION_ID = '[A-Za-z0-9][A-Za-z0-9_-]{0,127}'
