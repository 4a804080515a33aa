/**
 * The settings table's rows, read without the contract's schema (no zod): what `SettingsStore`
 * validates, and the operator's id for the hot paths (`approve-hook`) that cannot pay for zod.
 */
import { isAgentId } from '../../shared/agent-id'
import type { Db } from '../sqlite'

/** Every stored setting as `key -> JSON text`. */
export function settingRows(db: Db): { key: string; value_json: string }[] {
  return db.prepare('SELECT key, value_json FROM settings').all() as { key: string; value_json: string }[]
}

/** The operator's stored id, or null when none is stored or it is not a valid id. */
export function storedOperatorId(db: Db): string | null {
  const row = db.prepare("SELECT value_json FROM settings WHERE key = 'operatorId'").get() as { value_json: string } | undefined
  try {
    const id: unknown = row ? JSON.parse(row.value_json) : null
    return isAgentId(id) ? id : null
  } catch {
    return null
  }
}
