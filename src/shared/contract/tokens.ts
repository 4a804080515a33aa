/**
 * Token counts as Muster keeps them, whatever the harness: four disjoint kinds, so that a sum is
 * the harness's own total and a price applies to each kind once.
 * - `input`: prompt tokens read fresh (neither written to nor read from a prompt cache);
 * - `output`: generated tokens, reasoning or "thoughts" included;
 * - `cache_write`: prompt tokens written to a cache (Anthropic's cache creation);
 * - `cache_read`: prompt tokens read from a cache (OpenAI's and Gemini's "cached").
 * Plain TypeScript: the renderer, the core and the hook's worker share it.
 */

/** Tokens of one kind each. */
export interface TokenCounts {
  input: number
  output: number
  cache_write: number
  cache_read: number
}

/** The four kinds, in the order tables show them. */
export const TOKEN_KINDS = ['input', 'output', 'cache_write', 'cache_read'] as const
/** One kind of token. */
export type TokenKind = (typeof TOKEN_KINDS)[number]

/** No tokens. */
export function zeroTokens(): TokenCounts {
  return { input: 0, output: 0, cache_write: 0, cache_read: 0 }
}

/** Every kind together: the harness's own total. */
export function totalTokens(t: TokenCounts): number {
  return t.input + t.output + t.cache_write + t.cache_read
}

/** Adds `b` into `a` (in place) and returns `a`. */
export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  a.input += b.input
  a.output += b.output
  a.cache_write += b.cache_write
  a.cache_read += b.cache_read
  return a
}

/** True when every kind is zero. */
export function noTokens(t: TokenCounts): boolean {
  return t.input === 0 && t.output === 0 && t.cache_write === 0 && t.cache_read === 0
}

/** A count as read from a record: a finite, non-negative integer, else 0. */
export function tokenCount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0
}
