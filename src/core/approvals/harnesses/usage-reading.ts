/**
 * What a harness's usage reader is: a pure function of one record of the harness's own file (a
 * JSON line, parsed) and a small state carried from the records before it. It returns the tokens
 * the record adds (deltas: a record written again with larger counts adds the difference only)
 * and what it says about the session (its id, its folder). Each harness's reader lives in its own
 * file beside its hooks (`usage` of the adapter); the reading itself (offsets, lines, limits) is
 * the usage domain's (`core/usage/line-reader.ts`), which keeps the state between reads as JSON.
 * Here too: where harnesses keep their records (from HOME and the harness's own variables), and
 * how a message written more than once counts once. No file access.
 */
import type { HarnessId } from '../../../shared/contract/hub-vocabulary'
import { TOKEN_KINDS, zeroTokens, type TokenCounts } from '../../../shared/contract/tokens'

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

/** What `counts` adds for message `id` given what was already added for it; `seen` is updated in place. */
export function grownBy(seen: SeenMessages, id: string, counts: TokenCounts): TokenCounts {
  const at = seen.findIndex(([k]) => k === id)
  const before = at >= 0 ? seen[at]![1] : zeroTokens()
  const delta = zeroTokens()
  const after = { ...before }
  for (const k of TOKEN_KINDS) {
    if (counts[k] > before[k]) {
      delta[k] = counts[k] - before[k]
      after[k] = counts[k]
    }
  }
  if (at >= 0) seen.splice(at, 1)
  seen.push([id, after])
  if (seen.length > SEEN_LIMIT) seen.splice(0, seen.length - SEEN_LIMIT)
  return delta
}

/** A string field or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** An object field or undefined. */
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

/** The user's home folder in `env`, or null. */
export function homeOf(env: FolderEnv): string | null {
  return env.HOME || env.USERPROFILE || null
}

/**
 * Folders joined with `/` (no `node:path`: this runs in every hook process; Windows takes `/` as
 * well, and the scanner compares real paths).
 */
export function joinPath(...parts: string[]): string {
  return parts.map((p, i) => (i === 0 ? p.replace(/[\\/]+$/, '') : p.replace(/^[\\/]+|[\\/]+$/g, ''))).join('/')
}

/** `<variable>` when set, else `<home>/<fallback>`, then `sub` inside it; none without either. */
export function rootFrom(env: FolderEnv, variable: string, fallback: string, ...sub: string[]): string[] {
  const home = homeOf(env)
  const base = env[variable] || (home ? joinPath(home, fallback) : null)
  return base ? [joinPath(base, ...sub)] : []
}

/** A UUID-like session id (letters, digits, `-` and `_`). */
export const SESSION_ID = '[A-Za-z0-9][A-Za-z0-9_-]{0,127}'
