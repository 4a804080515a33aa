/**
 * The settings store: operator settings validated, and the values Muster keeps for itself (such
 * as the marked MUSE hub) through the same store instead of raw SQL elsewhere.
 */
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { DEFAULT_SETTINGS, SettingsStore } from './settings'
import { openStateDb } from './state-db'

describe('SettingsStore', () => {
  it('keeps internal values apart from the operator settings; refuses an operator key there', () => {
    const db = openStateDb(tmpDir())
    try {
      const store = new SettingsStore(db)
      expect(store.internal('muse.hub')).toBeUndefined()
      store.setInternal('muse.hub', 'hq')
      expect(store.internal('muse.hub')).toBe('hq')
      expect(store.get()).toEqual(DEFAULT_SETTINGS)
      db.prepare("UPDATE settings SET value_json = '{' WHERE key = 'muse.hub'").run()
      expect(store.internal('muse.hub')).toBeUndefined()
      store.setInternal('muse.hub', undefined)
      expect(db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'muse.hub'").get()).toEqual({ n: 0 })
      expect(() => store.setInternal('operatorId', 'x')).toThrow(/operator setting/)
      expect(store.update({ operatorId: 'desk-ada' }).operatorId).toBe('desk-ada')
    } finally {
      db.close()
    }
  })
})
