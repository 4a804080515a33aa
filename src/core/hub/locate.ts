/**
 * Where a MemPalace hub lives (spec/hub-logstream.md section 1), resolved exactly like MemPalace:
 * `--palace PATH`, env `MEMPALACE_PALACE_PATH` (legacy `MEMPAL_PALACE_PATH`), `palace_path` in
 * `~/.mempalace/config.json`, then `~/.mempalace/palace`. `~` follows `$HOME` so tests can move it.
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { HUB_FILENAME } from './store/schema'

/** The environment bits palace resolution reads. */
export type PalaceEnv = Partial<Record<'HOME' | 'USERPROFILE' | 'MEMPALACE_PALACE_PATH' | 'MEMPAL_PALACE_PATH', string>>

/** Where a palace path came from (shown by `hubs list` and errors). */
export type PalaceSource = 'flag' | 'env' | 'legacy-env' | 'config' | 'default'

/** A resolved palace. */
export interface ResolvedPalace {
  palace: string
  file: string
  source: PalaceSource
}

/** The user's home as MemPalace's `expanduser` sees it: `$HOME`, else the OS answer. */
export function userHome(env: PalaceEnv = process.env): string {
  return env.HOME || env.USERPROFILE || homedir()
}

/** Python's `abspath(expanduser(p))` with `$HOME` from `env`. */
export function expandUser(p: string, env: PalaceEnv = process.env, cwd = process.cwd()): string {
  const home = userHome(env)
  if (p === '~') return home
  if (p.startsWith('~/') || p.startsWith('~\\')) return resolve(home, p.slice(2))
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p)
}

/** `~/.mempalace`, MemPalace's own folder (config, watch state, server discovery). */
export function mempalaceDir(env: PalaceEnv = process.env): string {
  return join(userHome(env), '.mempalace')
}

function configPalace(env: PalaceEnv): string | null {
  try {
    const cfg = JSON.parse(readFileSync(join(mempalaceDir(env), 'config.json'), 'utf8')) as { palace_path?: unknown }
    return typeof cfg.palace_path === 'string' && cfg.palace_path.trim() ? cfg.palace_path : null
  } catch {
    return null // missing or unreadable config: MemPalace falls through to the default too
  }
}

/** Resolves the palace in MemPalace's order; the hub file is `<palace>/logstream.sqlite3`. */
export function resolvePalace(flag: string | null | undefined, env: PalaceEnv = process.env, cwd = process.cwd()): ResolvedPalace {
  const pick = (raw: string, source: PalaceSource): ResolvedPalace => {
    const palace = expandUser(raw, env, cwd)
    return { palace, file: join(palace, HUB_FILENAME), source }
  }
  if (flag && flag.trim()) return pick(flag, 'flag')
  if (env.MEMPALACE_PALACE_PATH?.trim()) return pick(env.MEMPALACE_PALACE_PATH, 'env')
  if (env.MEMPAL_PALACE_PATH?.trim()) return pick(env.MEMPAL_PALACE_PATH, 'legacy-env')
  const fromConfig = configPalace(env)
  if (fromConfig) return pick(fromConfig, 'config')
  return pick(join(mempalaceDir(env), 'palace'), 'default')
}
