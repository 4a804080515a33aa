/**
 * The root's hub-side parts, loaded by `root.ts` on first use: settings, the hub service and the
 * patch service. Kept apart from `./parts.ts` (keys, allowlist, approvals, the contract's service)
 * so that `muster patch verify`, which asks only for patches, loads only these (its CommonJS entry
 * bundles this file as a lazy part of its own).
 */
import { SettingsStore } from '../fleet'
import { HubService } from '../hub'
import { PatchService } from '../patches'
import type { Root } from './root-types'

/** The operator's id as settings hold it now. */
export async function operatorOf(root: Root): Promise<() => string> {
  const settings = await root.get('settings')
  return () => settings.get().operatorId
}

/** Settings on the state DB. */
export async function settingsPart(root: Root): Promise<SettingsStore> {
  return new SettingsStore(root.get('state'))
}

/** Every hub; pushes tails' events only while the root watches. */
export async function hubsPart(root: Root): Promise<HubService> {
  const o = root.options
  const hubs = new HubService({
    state: root.get('state'),
    projects: root.get('projects'),
    operator: await operatorOf(root),
    emit: o.watch ? (e) => root.emit(e) : undefined,
    lockTimeoutMs: o.hubLockTimeoutMs,
    env: o.env,
    home: o.home
  })
  root.onClose(() => hubs.close())
  return hubs
}

/** Patches through the root's hubs. */
export async function patchesPart(root: Root): Promise<PatchService> {
  const patches = new PatchService({
    hubs: await root.get('hubs'),
    db: root.get('state'),
    projects: root.get('projects'),
    operator: await operatorOf(root),
    emit: (e) => root.emit(e)
  })
  root.onClose(() => patches.close())
  return patches
}
