/**
 * A hub service on its own, for one-shot callers (the CLI's hub commands): Muster's state DB in
 * `home` (registry, inbox cursors, projects for task base-commit checks), no live tails.
 */
import { ProjectRegistry, SettingsStore, openStateDb } from '../fleet'
import { HubService } from './hub-service'
import type { PalaceEnv } from './locate'

/** Opens a hub service on Muster's home; `close` closes its hubs and the state DB. */
export function openHubService(home: string, env?: PalaceEnv): { hubs: HubService; close(): Promise<void> } {
  const db = openStateDb(home)
  const settings = new SettingsStore(db)
  const hubs = new HubService({ state: db, projects: new ProjectRegistry(db), operator: () => settings.get().operatorId, env, home })
  return {
    hubs,
    async close() {
      await hubs.close()
      db.close()
    }
  }
}
