/**
 * The root's heavier parts, loaded by `root.ts` on first use: settings (the contract's schema),
 * the hub, patch and approvals services, and the contract's service. Each is built from the
 * root's other parts and registers its own cleanup.
 */
import { AllowlistStore, ApprovalsService, OperatorKeys, SnoozeStore, type RuleKeys } from '../approvals'
import { SettingsStore } from '../fleet'
import { HubService } from '../hub'
import { PatchService } from '../patches'
import type { MusterService } from '../service-types'
import type { Root } from './root'

/** The operator's id as settings hold it now. */
async function operatorOf(root: Root): Promise<() => string> {
  const settings = await root.get('settings')
  return () => settings.get().operatorId
}

/** The operator's keys: made if missing, wrapped when the root has a key protector (the desktop app). */
export async function keysPart(root: Root): Promise<OperatorKeys> {
  const keys = new OperatorKeys(root.options.home, root.options.keyProtector ?? null)
  try {
    keys.ensure() // every operator home has its key before a hook is installed or a decision made
    keys.protect() // with a keychain (the desktop app), a plain key is wrapped into it
  } catch {
    /* a read-only home: made on the first decision, which then says why it cannot */
  }
  return keys
}

/** How rules and decisions are signed and checked with the operator's keys. */
async function ruleKeysOf(root: Root): Promise<Required<RuleKeys>> {
  const keys = await root.get('keys')
  return { trust: () => keys.decisionTrust(), signer: () => keys.signer() }
}

/** The allowlist, its rules signed with the operator's key. */
export async function rulesPart(root: Root): Promise<AllowlistStore> {
  return new AllowlistStore(root.get('state'), await ruleKeysOf(root))
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

/** Approvals through the root's hubs and allowlist. */
export async function approvalsPart(root: Root): Promise<ApprovalsService> {
  return new ApprovalsService({
    hubs: await root.get('hubs'),
    rules: await root.get('rules'),
    operator: await operatorOf(root),
    keys: await ruleKeysOf(root),
    snoozes: new SnoozeStore(root.get('state'))
  })
}

/** The contract's service on the root's parts. */
export async function servicePart(root: Root): Promise<MusterService> {
  // imported here, not above: the contract's zod schemas load only for the service, never for
  // the parts a one-shot command asks for (`patch verify`: hubs and patches)
  const { buildService } = await import('../service')
  return buildService(root)
}
