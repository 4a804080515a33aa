/**
 * Which gates this home installed: `<home>/gates.json`, one record per harness and settings file
 * (its events, Codex's mode, the agent), written by `approve-hook install` and dropped by
 * `--uninstall`. Gate health (`gate-health.ts`) checks each, and also finds Muster's gates in each
 * harness's default settings file that an older Muster installed without a record.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { HarnessId } from '../../shared/contract/hub-vocabulary'
import { makeDirSync } from '../make-dir'

/** The records' file in a home. */
export const GATES_FILE = 'gates.json'

/** One installed gate: a harness's settings file and the events Muster's hook answers there. */
export interface GateRecord {
  harness: HarnessId
  /** The settings (or plugin) file, absolute. */
  file: string
  events: string[]
  /** Codex's `--mode` (interactive, exec, both), when given. */
  mode: string | null
  agent: string
  /** When it was installed or last updated (ISO). */
  installed_at: string
}

/** The gates recorded in a home (none when the file is missing or unreadable). */
export function readGateRecords(home: string): GateRecord[] {
  const file = join(home, GATES_FILE)
  if (!existsSync(file)) return []
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { gates?: unknown }
    return Array.isArray(parsed.gates) ? (parsed.gates as GateRecord[]).filter((g) => g && typeof g.file === 'string') : []
  } catch {
    return []
  }
}

function writeRecords(home: string, gates: GateRecord[]): void {
  makeDirSync(home)
  const file = join(home, GATES_FILE)
  const tmp = `${file}.${process.pid}.muster.tmp`
  writeFileSync(tmp, JSON.stringify({ gates }, null, 2) + '\n', { mode: 0o600 })
  renameSync(tmp, file)
}

/** Records (or updates) the gate of `rec.harness` in `rec.file`. */
export function recordGate(home: string, rec: GateRecord): void {
  const rest = readGateRecords(home).filter((g) => !(g.harness === rec.harness && g.file === rec.file))
  writeRecords(home, [...rest, rec])
}

/** Drops the record of the gate of `harness` in `file`. */
export function forgetGate(home: string, harness: HarnessId, file: string): void {
  const all = readGateRecords(home)
  const rest = all.filter((g) => !(g.harness === harness && g.file === file))
  if (rest.length !== all.length) writeRecords(home, rest)
}
