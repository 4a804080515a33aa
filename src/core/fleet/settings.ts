/**
 * Operator settings stored as JSON values in the state DB, validated by the contract's rules
 * (shared/settings-rules.ts: without zod, so `muster patch verify` and the hook never load it).
 */
import type { Settings } from '../../shared/api'
import { readSettings } from '../../shared/settings-rules'
import type { Db } from '../sqlite'
import { settingRows } from './settings-rows'

/** Settings used until the operator changes them. */
export const DEFAULT_SETTINGS: Settings = { theme: 'system', operatorId: 'desk-muster', operatorRoles: [] }

/** Reads and writes settings; unknown or invalid stored values fall back to defaults. */
export class SettingsStore {
  constructor(private readonly db: Db) {}

  /** The current settings. */
  get(): Settings {
    const rows = settingRows(this.db)
    const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS }
    for (const row of rows) {
      if (!(row.key in DEFAULT_SETTINGS)) continue
      try {
        merged[row.key] = JSON.parse(row.value_json)
      } catch {
        /* a corrupt value falls back to the default */
      }
    }
    return readSettings(merged) ?? DEFAULT_SETTINGS
  }

  /** Applies a validated partial update in one transaction and returns the result. */
  update(patch: Partial<Settings>): Settings {
    const put = this.db.prepare(
      'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json'
    )
    this.db.transaction(() => {
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) put.run(k, JSON.stringify(v))
    })()
    return this.get()
  }

  /**
   * A value Muster keeps for itself under `key` beside the operator's settings (e.g. `muse.hub`,
   * the marked hub project): the parsed JSON, or undefined when none is stored or it is corrupt.
   */
  internal(key: string): unknown {
    const row = this.db.prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined
    try {
      return row ? (JSON.parse(row.value_json) as unknown) : undefined
    } catch {
      return undefined
    }
  }

  /** Stores such a value under `key` (JSON), or removes it with undefined. */
  setInternal(key: string, value: unknown): void {
    if (key in DEFAULT_SETTINGS) throw new Error(`${key} is an operator setting: use update`)
    if (value === undefined) this.db.prepare('DELETE FROM settings WHERE key = ?').run(key)
    else
      this.db
        .prepare('INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json')
        .run(key, JSON.stringify(value))
  }
}
