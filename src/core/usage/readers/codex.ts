/**
 * Codex's usage: its session rollouts (`<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-*.jsonl`, and
 * `archived_sessions/`), one JSON record per line. `session_meta` names the session and its `cwd`,
 * `turn_context` the model of the turn, and each `event_msg` of type `token_count` the session's
 * running total (`info.total_token_usage`): a record adds what the total grew by since the last
 * one, for the model of the turn, so a total repeated or written again adds nothing. OpenAI counts
 * cached and cache-written prompt tokens inside `input_tokens`, and reasoning inside
 * `output_tokens`: input here is what was read fresh.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { TOKEN_KINDS, tokenCount, zeroTokens, type TokenCounts } from '../../../shared/usage/tokens'
import { rootFrom } from './folders'
import { obj, text } from './seen'
import type { RecordUsage, UsageReader } from './types'

/** What Codex's reader carries between records: the turn's model and the last running total. */
export interface CodexUsageState {
  model: string | null
  total: TokenCounts | null
}

/** A `total_token_usage` in Muster's kinds. */
function countsOf(u: Record<string, unknown>): TokenCounts {
  const input = tokenCount(u.input_tokens)
  const cached = tokenCount(u.cached_input_tokens)
  const written = tokenCount(u.cache_write_input_tokens)
  return {
    input: Math.max(0, input - cached - written),
    output: tokenCount(u.output_tokens),
    cache_write: written,
    cache_read: cached
  }
}

/** `sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl` or `archived_sessions/rollout-…`: the session is the UUID at the end. */
const FILE_RE =
  /^(?:sessions\/\d{4}\/\d{2}\/\d{2}|archived_sessions)\/rollout-[0-9T:-]+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i

/** Codex rollouts. */
export const codexUsage: UsageReader<CodexUsageState> = {
  harness: Harness.codex,
  roots: (env) => rootFrom(env, 'CODEX_HOME', '.codex'),
  recordFile: (rel) => {
    const m = FILE_RE.exec(rel)
    return m ? { session_id: m[1]!.toLowerCase() } : null
  },
  prune: (dir) => {
    const parts = dir.split('/')
    return (parts[0] !== 'sessions' && parts[0] !== 'archived_sessions') || parts.length > 4
  },
  wanted: (line) => line.includes('"token_count"') || line.includes('"turn_context"') || line.includes('"session_meta"'),
  start: () => ({ model: null, total: null }),
  read(r, state): RecordUsage {
    const p = obj(r.payload)
    if (!p) return { usage: [] }
    if (r.type === 'session_meta') return { usage: [], facts: { session_id: text(p.id) ?? text(p.session_id), cwd: text(p.cwd) } }
    if (r.type === 'turn_context') {
      state.model = text(p.model) ?? state.model
      return { usage: [], facts: { cwd: text(p.cwd) } }
    }
    if (r.type !== 'event_msg' || p.type !== 'token_count') return { usage: [] }
    const total = obj(obj(p.info)?.total_token_usage)
    if (!total) return { usage: [] }
    const now = countsOf(total)
    const before = state.total
    // a total below the last one is a new count (a resumed or forked thread): all of it is new
    const restarted = before !== null && TOKEN_KINDS.some((k) => now[k] < before[k])
    const tokens = zeroTokens()
    for (const k of TOKEN_KINDS) tokens[k] = before && !restarted ? now[k] - before[k] : now[k]
    state.total = now
    return { usage: [{ at: text(r.timestamp) ?? null, model: state.model ?? 'unknown', tokens }] }
  }
}
