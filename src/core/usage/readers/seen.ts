/**
 * Messages a harness writes more than once (Claude Code writes one line per content block of a
 * message, each with the message's usage; Gemini CLI writes a message again once its tool calls
 * ran): the counts already added for each recent message id, so a message written again adds only
 * what grew. Pure.
 */
import { TOKEN_KINDS, zeroTokens, type TokenCounts } from '../../../shared/usage/tokens'
import { SEEN_LIMIT, type SeenMessages } from './types'

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
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/** An object field or undefined. */
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
