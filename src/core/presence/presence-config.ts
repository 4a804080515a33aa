/**
 * A home's presence settings, `<home>/presence.json` (0600): the policy (`off`, `risky`,
 * `every-allow`), the risky list, and the enrolled authenticators (their public keys). The hook of
 * a gate installed in the user's own settings reads this file; an admin-owned gate (`--managed`)
 * reads the copy made for it in a root-owned file instead (`gate-file.ts`). Every change goes
 * through `writePresenceConfig`: a temporary file renamed into place. Light (node:fs, node:path):
 * the hook reads it on every call.
 */
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { DEFAULT_RISKY, PRESENCE_POLICIES, riskyProblem, type PresencePolicy, type RiskyPattern } from '../../shared/approvals/presence'
import { makeDirSync } from '../make-dir'
import { readCredential, type StoredCredential } from './credentials'

/** The file's name in a home. */
export const PRESENCE_FILE = 'presence.json'

/** A home's (or a gate's) presence settings. */
export interface PresenceConfig {
  policy: PresencePolicy
  risky: RiskyPattern[]
  credentials: StoredCredential[]
  changed_at: string | null
}

/** A home with nothing enrolled: policy off, the default risky list. */
export function emptyPresence(): PresenceConfig {
  return { policy: 'off', risky: DEFAULT_RISKY.map((p) => ({ ...p })), credentials: [], changed_at: null }
}

/** Reads presence settings from parsed JSON; a damaged document is an error naming `where`. */
export function parsePresence(o: unknown, where: string): PresenceConfig {
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new ApiError(`${where} is not a presence settings file`, 'invalid_input')
  const d = o as Record<string, unknown>
  if (typeof d.policy !== 'string' || !(PRESENCE_POLICIES as readonly string[]).includes(d.policy))
    throw new ApiError(`${where}: unknown presence policy ${JSON.stringify(d.policy)}`, 'invalid_input')
  if (!Array.isArray(d.risky) || !Array.isArray(d.credentials))
    throw new ApiError(`${where} is not a presence settings file`, 'invalid_input')
  const risky = d.risky.map((p) => p as RiskyPattern)
  const bad = risky.find((p) => riskyProblem(p) !== null)
  if (bad) throw new ApiError(`${where}: risky pattern ${JSON.stringify(bad)}: ${riskyProblem(bad)}`, 'invalid_input')
  const credentials = d.credentials.map(readCredential)
  if (credentials.some((c) => c === null)) throw new ApiError(`${where}: an authenticator entry is damaged`, 'invalid_input')
  return {
    policy: d.policy as PresencePolicy,
    risky: risky.map((p) => ({ kind: p.kind, pattern: p.pattern, category: p.category })),
    credentials: credentials as StoredCredential[],
    changed_at: typeof d.changed_at === 'string' ? d.changed_at : null
  }
}

/** The file's text and settings in `home` (no file: nothing enrolled, policy off). */
export function readPresenceFile(home: string): { text: string | null; config: PresenceConfig } {
  const file = join(home, PRESENCE_FILE)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, config: emptyPresence() }
    throw new ApiError(`cannot read ${file}: ${(err as Error).message}`, 'internal')
  }
  let o: unknown
  try {
    o = JSON.parse(text)
  } catch (err) {
    throw new ApiError(`cannot read ${file}: ${(err as Error).message}`, 'invalid_input')
  }
  return { text, config: parsePresence(o, file) }
}

/** The presence settings of `home`. */
export function readPresence(home: string): PresenceConfig {
  return readPresenceFile(home).config
}

/** The text of `config` as the file holds it. */
export function presenceText(config: PresenceConfig): string {
  return `${JSON.stringify({ v: 1, ...config }, null, 2)}\n`
}

/** Writes the presence settings of `home` (a temporary file renamed into place, mode 0600). */
export function writePresence(home: string, config: PresenceConfig): void {
  makeDirSync(home, { mode: 0o700 })
  const file = join(home, PRESENCE_FILE)
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  try {
    writeFileSync(tmp, presenceText(config), { mode: 0o600 })
    chmodSync(tmp, 0o600)
    renameSync(tmp, file)
  } catch (err) {
    try {
      unlinkSync(tmp)
    } catch {
      // never written
    }
    throw new ApiError(`cannot write ${file}: ${(err as Error).message}`, 'internal')
  }
}
