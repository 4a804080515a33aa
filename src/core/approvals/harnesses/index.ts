/**
 * The registry of harnesses: each one file of this folder (detection, payload parsing, answers,
 * settings location and install shape, lifecycle events, faults, trust, versions). The CLI, the
 * service and the hooks consult only this list. Detection looks at the payload as a whole (Codex
 * payloads carry `permission_mode` too, so that alone never says Claude Code).
 */
import type { HarnessId } from '../../../shared/contract/hub-vocabulary'
import { claudeCode } from './claude-code'
import { codex } from './codex'
import { copilot } from './copilot'
import { cursor } from './cursor'
import { gemini } from './gemini'
import { opencode } from './opencode'
import type { HarnessAdapter } from './types'

/** Every harness, most specific first (the order detection tries them in). */
export const ADAPTERS: readonly HarnessAdapter[] = [cursor, gemini, copilot, opencode, codex, claudeCode]

/** Every harness in the order the README and `--harness` list them. */
export const HARNESS_LIST: readonly HarnessAdapter[] = [claudeCode, codex, gemini, copilot, cursor, opencode]

const BY_NAME = new Map<string, HarnessAdapter>(HARNESS_LIST.flatMap((h) => [h.id, h.name, ...(h.aliases ?? [])].map((n) => [n, h])))

/** The harness of a name: its id (`claude-code`), install name (`claude`) or an alias; null for none. */
export function adapterFor(name: string): HarnessAdapter | null {
  return BY_NAME.get(name) ?? null
}

/** The harness of an id. */
export function harnessOf(id: HarnessId): HarnessAdapter {
  return BY_NAME.get(id)!
}

/** The harness whose approvals payload this is, or null. */
export function detectHarness(o: Record<string, unknown>, event?: string): HarnessAdapter | null {
  return ADAPTERS.find((a) => a.recognizes(o, event)) ?? null
}

/** The harnesses with lifecycle hooks, in the order a lifecycle payload is tried against them. */
export const LIFECYCLE_HARNESSES: readonly HarnessAdapter[] = [copilot, codex, gemini, claudeCode]

/** The harness whose lifecycle payload this is, or null. */
export function detectLifecycle(o: Record<string, unknown>): HarnessAdapter | null {
  return LIFECYCLE_HARNESSES.find((h) => h.lifecycle!.recognizes(o)) ?? null
}

export type {
  EntryOptions,
  FaultHandling,
  GateFault,
  HarnessAdapter,
  HarnessCall,
  HookEntrySpec,
  HookReply,
  HookVerdict,
  SettingsLocation
} from './types'
export { compareVersions, GATE_FAULTS, HookInputError } from './types'
export type { FolderEnv, RecordUsage, SessionFacts, UsageDelta, UsageReader } from './usage-reading'
