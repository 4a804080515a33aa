/**
 * Where Muster keeps its own state. Order: `--home DIR`, env `MUSTER_HOME`, then the caller's
 * default (Electron's userData folder for the desktop app, `~/.muster` for the CLI and server).
 */
import { homedir } from 'node:os'
import { resolve } from 'node:path'

/** The CLI's and server's default home. */
export function defaultCliHome(): string {
  return resolve(homedir(), '.muster')
}

/** Expands a leading `~` and makes a path absolute. */
export function expandPath(p: string): string {
  if (p === '~') return homedir()
  if (p.startsWith('~/')) return resolve(homedir(), p.slice(2))
  return resolve(p)
}

/** Resolves Muster's home folder from a flag, the environment and a fallback. */
export function resolveHome(flag: string | undefined, env: NodeJS.ProcessEnv, fallback: string): string {
  const chosen = flag || env.MUSTER_HOME || fallback
  return expandPath(chosen)
}
