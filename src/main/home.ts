/**
 * Where Muster keeps its state: `--home DIR` on the command line, else `MUSTER_HOME`, else
 * Electron's userData folder (which respects `app.setPath` and `--user-data-dir`).
 */
import { resolve } from 'node:path'

/** Inputs for `resolveHome`. */
export interface HomeInput {
  argv: readonly string[]
  env: Record<string, string | undefined>
  /** `app.getPath('userData')`. */
  userData: string
  /** Base for a relative `--home` / `MUSTER_HOME` (default `process.cwd()`). */
  cwd?: string
}

/** The value of `--home DIR` or `--home=DIR` in `argv`, or undefined (last one wins). */
export function homeFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') break
    if (arg === '--home') {
      const next = argv[i + 1]
      if (next !== undefined && !next.startsWith('--')) {
        found = next
        i++
      }
    } else if (arg?.startsWith('--home=')) {
      const value = arg.slice('--home='.length)
      if (value) found = value
    }
  }
  return found
}

/** Resolves Muster's home folder as an absolute path. */
export function resolveHome({ argv, env, userData, cwd = process.cwd() }: HomeInput): string {
  const fromArgs = homeFromArgv(argv)
  if (fromArgs) return resolve(cwd, fromArgs)
  const fromEnv = env.MUSTER_HOME?.trim()
  if (fromEnv) return resolve(cwd, fromEnv)
  return userData
}
