/**
 * What a harness's usage reader is: a pure function of one record of the harness's own file (a
 * JSON line, parsed) and a small state carried from the records before it. It returns the tokens
 * the record adds (deltas: a record written again with larger counts adds the difference only)
 * and what it says about the session (its id, its folder, its model). The reading itself (offsets,
 * lines, limits) is the usage domain's (`line-reader.ts`); the state is kept between reads as JSON.
 * No Node here: a reader is data in, data out.
 */
import type { HarnessId } from '../../../shared/contract/hub-vocabulary'
import type { TokenCounts } from '../../../shared/usage/tokens'

/** Tokens one record adds, for one model, at the record's time (ISO; null when it has none). */
export interface UsageDelta {
  at: string | null
  model: string
  tokens: TokenCounts
}

/** What records say about their session. */
export interface SessionFacts {
  session_id?: string
  cwd?: string
}

/** What one record yields. */
export interface RecordUsage {
  usage: UsageDelta[]
  facts?: SessionFacts
}

/** The variables a harness's folders depend on (HOME and the harness's own). */
export type FolderEnv = Readonly<Record<string, string | undefined>>

/** A harness's usage reader over its state `S` (plain JSON, kept between reads). */
export interface UsageReader<S = unknown> {
  harness: HarnessId
  /** The folders the harness keeps its records in, for an environment (none when it names no home). */
  roots(env: FolderEnv): string[]
  /**
   * For a path inside one of the roots (relative, `/`-separated): null when it is not one of the
   * harness's record files, else the session it belongs to as its path says (null: read it from
   * the records).
   */
  recordFile(rel: string): { session_id: string | null } | null
  /** For a folder inside a root (relative, `/`-separated): true when no record file can lie in it (a walk skips it). */
  prune(relDir: string): boolean
  /**
   * A cheap test on the raw line before it is parsed: false means the line can carry neither
   * usage nor session facts (most of a transcript's bytes are prompts and tool output).
   */
  wanted(line: string): boolean
  /** The state before the file's first record. */
  start(): S
  /** One parsed record; `state` is updated in place. */
  read(record: Record<string, unknown>, state: S): RecordUsage
}

/** Recently seen messages with the counts already added for them, newest last (a bounded list). */
export type SeenMessages = [id: string, counts: TokenCounts][]

/** How many message ids a reader remembers to recognise a message written again. */
export const SEEN_LIMIT = 64
