/**
 * The usage readers of the harnesses that have one: each lives in its harness's own file
 * (`core/approvals/harnesses/<harness>.ts`, its adapter's `usage`); a harness without one says why
 * (`noUsage`), which screens show instead of a 0.
 */
import { HARNESS_LIST, type UsageReader } from '../../approvals'

/** Every usage reader, in the order harnesses are listed. */
export const USAGE_READERS: readonly UsageReader[] = HARNESS_LIST.flatMap((h) => (h.usage ? [h.usage] : []))

/** The usage reader of a harness id, or null. */
export function usageReaderFor(harness: string): UsageReader | null {
  return USAGE_READERS.find((r) => r.harness === harness) ?? null
}

/** Why a harness has no usage reader, or null when it has one (or is unknown). */
export function noUsageOf(harness: string): string | null {
  return HARNESS_LIST.find((h) => h.id === harness)?.noUsage ?? null
}

export type { FolderEnv, RecordUsage, SessionFacts, UsageDelta, UsageReader } from '../../approvals'
