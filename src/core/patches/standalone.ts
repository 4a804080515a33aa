/**
 * The patch service on its own, for one-shot callers (the CLI's `patch` and `artifact` commands):
 * Muster's state DB in `home` (projects, settings, the audit), a hub service without live tails.
 */
import { ProjectRegistry, SettingsStore, openStateDb } from '../fleet'
import { HubService, type PalaceEnv } from '../hub'
import { PatchService } from './patch-service'

/** Opens the hub and patch services on Muster's home; `close` ends runs, hubs and the state DB. */
export function openPatchService(
  home: string,
  env?: PalaceEnv
): { hubs: HubService; patches: PatchService; operator(): string; close(): Promise<void> } {
  const db = openStateDb(home)
  const settings = new SettingsStore(db)
  const projects = new ProjectRegistry(db)
  const operator = (): string => settings.get().operatorId
  const hubs = new HubService({ state: db, projects, operator, env, home })
  const patches = new PatchService({ hubs, db, projects, operator })
  return {
    hubs,
    patches,
    operator,
    async close() {
      await patches.close()
      await hubs.close()
      db.close()
    }
  }
}
