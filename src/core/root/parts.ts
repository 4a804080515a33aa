/**
 * The root's heavier parts, loaded by `root.ts` on first use: the operator's keys, the allowlist,
 * the approvals service and the contract's service (settings, hubs and patches are in
 * `./hub-parts.ts`). Each is built from the root's other parts and registers its own cleanup.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { AllowlistStore, ApprovalsService, GateMonitor, OperatorKeys, SnoozeStore, type RuleKeys } from '../approvals'
import { HubRegistry, userHome } from '../hub'
import { PresenceService } from '../presence'
import type { MusterService } from '../service-types'
import { UsageService, type FolderEnv } from '../usage'
import type { Root } from './root-types'

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

/** Approvals through the root's hubs and allowlist. */
export async function approvalsPart(root: Root): Promise<ApprovalsService> {
  const settings = await root.get('settings')
  return new ApprovalsService({
    hubs: await root.get('hubs'),
    rules: await root.get('rules'),
    operator: () => settings.get().operatorId,
    keys: await ruleKeysOf(root),
    snoozes: new SnoozeStore(root.get('state')),
    presence: await root.get('presence').then((p) => () => p.enforced())
  })
}

/** The operator's authenticators and the home's presence policy. */
export async function presencePart(root: Root): Promise<PresenceService> {
  const settings = await root.get('settings')
  return new PresenceService(root.options.home, () => settings.get().operatorId)
}

/**
 * Usage and budgets: this machine's harness records (the folders of the root's environment; none
 * without one, so a root opened without `env` never reads a real home's records), other machines'
 * through the hubs.
 */
export async function usagePart(root: Root): Promise<UsageService> {
  const projects = root.get('projects')
  return new UsageService({
    db: root.get('state'),
    keys: await ruleKeysOf(root),
    settings: await root.get('settings'),
    projectFor: (cwd) => projects.holding(cwd),
    env: (root.options.env ?? {}) as FolderEnv,
    hubs: await root.get('hubs')
  })
}

/** The contract's service on the root's parts. */
export async function servicePart(root: Root): Promise<MusterService> {
  // imported here, not above: the contract's zod schemas load only for the service, never for
  // the parts a one-shot command asks for (`patch verify`: hubs and patches)
  const { buildService } = await import('./service')
  return buildService(root)
}

/** The gate health worker built beside this module's bundle (`gate-health-worker`), or null (running from source). */
function gateWorker(): string | null {
  for (const name of ['gate-health-worker.mjs', 'gate-health-worker.js']) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url))
    if (existsSync(path)) return path
  }
  return null
}

/** Every installed gate's health, checked off the main thread and cached in the home. */
export async function gatesPart(root: Root): Promise<GateMonitor> {
  const { home, env = process.env } = root.options
  const monitor = new GateMonitor({
    home,
    userHome: userHome(env),
    env,
    cwd: process.cwd(),
    registry: () => {
      try {
        return new HubRegistry(root.get('state'))
      } catch {
        return null
      }
    },
    worker: gateWorker()
  })
  root.onClose(() => monitor.close())
  return monitor
}
