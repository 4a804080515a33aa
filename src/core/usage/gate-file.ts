/**
 * Which budgets are crossed, beside Muster's state DB (`usage-gate.json`), so that the hook's fast
 * path (`src/cli/hook-fast-main.ts`), which never opens SQLite, learns it with one small read and
 * sends every call to the full hook while any budget is crossed. It fails closed: a fast path that
 * finds no gate file, an unreadable or torn one, or one of another state DB (device and inode)
 * answers nothing from the allowlist either; the full hook reads the budgets and the usage from
 * the DB itself (and writes the file again). Written, through a temporary name renamed into place,
 * by every process that changes usage or budgets (the app, `muster serve`, a command, a session
 * hook's worker). It holds no signature: it can only send calls the long way, never allow one.
 * Light on purpose (node:fs, node:path): the fast path reads it on every tool call.
 */
import { readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { replaceFileSync } from '../replace-file'

/** The gate file's name, beside the state DB. */
export const GATE_FILE = 'usage-gate.json'
const FORMAT = 'muster.usage-gate/1'
const MAX_GATE_BYTES = 1024 * 1024

/** A crossed budget as the gate file names it, and since when it is crossed (ISO). */
export interface GateEntry {
  id: number
  scope: string
  target: string
  since: string
}

/** The identity of the state DB file: device and inode. */
function fileIdentity(file: string): string {
  const s = statSync(file, { bigint: true })
  return `${s.dev}:${s.ino}`
}

/** The gate file of the state DB at `dbFile`. */
export function gatePath(dbFile: string): string {
  return join(dirname(dbFile), GATE_FILE)
}

/** Writes the gate file for the state DB at `dbFile`: the budgets crossed now (none: an empty list). */
export function writeGate(dbFile: string, crossed: readonly GateEntry[], at = new Date()): void {
  const target = gatePath(dbFile)
  const body = { format: FORMAT, state_db: fileIdentity(dbFile), at: at.toISOString(), crossed }
  replaceFileSync(target, JSON.stringify(body))
}

/** The crossed budgets the gate file of `dbFile` names, or null when it cannot be trusted to say (missing, torn, another DB's). */
export function readGate(dbFile: string): GateEntry[] | null {
  try {
    const text = readFileSync(gatePath(dbFile), 'utf8')
    if (text.length > MAX_GATE_BYTES) return null
    const o = JSON.parse(text) as Record<string, unknown>
    if (!o || o.format !== FORMAT || typeof o.state_db !== 'string' || !Array.isArray(o.crossed)) return null
    if (o.state_db !== fileIdentity(dbFile)) return null
    const out: GateEntry[] = []
    for (const e of o.crossed as unknown[]) {
      if (!e || typeof e !== 'object') return null
      const { id, scope, target, since } = e as Record<string, unknown>
      if (typeof id !== 'number' || typeof scope !== 'string' || typeof target !== 'string') return null
      out.push({ id, scope, target, since: typeof since === 'string' ? since : '' })
    }
    return out
  } catch {
    return null
  }
}
