/**
 * An admin-owned gate's trust (`approve-hook install --managed`): a root-owned JSON file, named on
 * the hook's command line (`--gate FILE`) in the harness's managed settings, holding what the hook
 * trusts for one user's home: the operator keys, the presence policy and risky list, and the
 * enrolled authenticators' public keys, copied from the home when root installed the gate. An agent
 * running as the user can read it and can change none of it: the hook refuses a gate file that is
 * not owned by root or that anyone but root could change (the file or any folder above it), and
 * then allows nothing. Light (node:fs, node:path): the hook reads it on every call.
 */
import { readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { parsePresence, type PresenceConfig } from './presence-config'

/** The format tag of a gate file. */
export const GATE_FORMAT = 'muster.gate/1'

/** What a gate file holds. */
export interface GateFile {
  format: typeof GATE_FORMAT
  /** The user (name and uid) and the Muster home the gate was installed for. */
  user: string
  uid: number
  home: string
  /** Operator keys whose decisions count (the home's own and its trusted ones, at install). */
  operator_keys: string[]
  presence: PresenceConfig
  /** The append-only trust ledger of this home (rules, key revocations), or null. */
  ledger: string | null
  installed_at: string
}

/**
 * Why `file` cannot be trusted as admin-owned, or null: it and every folder above it must be
 * owned by root (uid 0) and writable by nobody else. Windows has no such check here (managed
 * gates are not offered there).
 */
export function rootOwnedProblem(file: string): string | null {
  if (process.platform === 'win32') return 'admin-owned gates are not supported on Windows'
  let at = file
  for (;;) {
    let s
    try {
      s = statSync(at)
    } catch (err) {
      return `cannot read ${at}: ${(err as Error).message}`
    }
    if (s.uid !== 0) return `${at} is not owned by root (uid ${s.uid})`
    // a folder with the sticky bit (/tmp) still lets others replace nothing of root's, but a gate does not belong there
    if ((s.mode & 0o022) !== 0) return `${at} can be changed by others than root (mode ${(s.mode & 0o777).toString(8)})`
    const up = dirname(at)
    if (up === at) return null
    at = up
  }
}

/** Reads a gate file; `checkOwner` (the hook's case) refuses one that is not admin-owned. */
export function readGateFile(file: string, checkOwner = true): GateFile {
  if (checkOwner) {
    const problem = rootOwnedProblem(file)
    if (problem) throw new ApiError(`the admin-owned gate ${file} cannot be trusted: ${problem}`, 'conflict')
  }
  let o: Record<string, unknown>
  try {
    o = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch (err) {
    throw new ApiError(`cannot read the gate ${file}: ${(err as Error).message}`, 'invalid_input')
  }
  if (!o || o.format !== GATE_FORMAT) throw new ApiError(`${file} is not a Muster gate file`, 'invalid_input')
  if (typeof o.user !== 'string' || typeof o.uid !== 'number' || typeof o.home !== 'string' || !Array.isArray(o.operator_keys))
    throw new ApiError(`${file} is not a Muster gate file`, 'invalid_input')
  return {
    format: GATE_FORMAT,
    user: o.user,
    uid: o.uid,
    home: o.home,
    operator_keys: o.operator_keys.filter((k): k is string => typeof k === 'string'),
    presence: parsePresence(o.presence, file),
    ledger: typeof o.ledger === 'string' ? o.ledger : null,
    installed_at: typeof o.installed_at === 'string' ? o.installed_at : ''
  }
}
