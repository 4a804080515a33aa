/**
 * The harness adapters, and which one a payload belongs to. Detection looks at the payload as a
 * whole (Codex payloads carry `permission_mode` too, so that alone never says Claude Code).
 */
import { Harness, type HarnessId } from '../../../shared/contract/hub-vocabulary'
import { claudeCode } from './claude-code'
import { codex } from './codex'
import { copilot } from './copilot'
import { cursor } from './cursor'
import { gemini } from './gemini'
import { opencode } from './opencode'
import type { HarnessAdapter } from './types'

/** Every adapter, most specific first (the order detection tries them in). */
export const ADAPTERS: readonly HarnessAdapter[] = [cursor, gemini, copilot, opencode, codex, claudeCode]

const BY_ID = new Map<HarnessId, HarnessAdapter>(ADAPTERS.map((a) => [a.id, a]))

/** Names the flag `--harness` accepts for each harness (the installer's short names included). */
const ALIASES: Record<string, HarnessId> = { claude: Harness.claudeCode, 'qwen-code': Harness.gemini, qwen: Harness.gemini }

/** The adapter of a harness name (or alias), or null. */
export function adapterFor(name: string): HarnessAdapter | null {
  return BY_ID.get((ALIASES[name] ?? name) as HarnessId) ?? null
}

/** The adapter whose payload this is, or null. */
export function detectHarness(o: Record<string, unknown>, event?: string): HarnessAdapter | null {
  return ADAPTERS.find((a) => a.recognizes(o, event)) ?? null
}

export type { HarnessAdapter, HarnessCall, HookReply, HookVerdict } from './types'
export { HookInputError } from './types'
