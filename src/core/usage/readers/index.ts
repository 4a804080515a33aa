/**
 * The harnesses whose records Muster reads usage from, and what the others record.
 */
import type { UsageReader } from './types'
import { claudeCodeUsage } from './claude-code'
import { codexUsage } from './codex'
import { geminiUsage } from './gemini'

/** Every usage reader. */
export const USAGE_READERS: readonly UsageReader[] = [claudeCodeUsage, codexUsage, geminiUsage]

/** The usage reader of a harness id, or null. */
export function usageReaderFor(harness: string): UsageReader | null {
  return USAGE_READERS.find((r) => r.harness === harness) ?? null
}

export { claudeCodeUsage, codexUsage, geminiUsage }
export type { FolderEnv, RecordUsage, SessionFacts, UsageDelta, UsageReader } from './types'
