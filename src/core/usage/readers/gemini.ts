/**
 * Gemini CLI's usage: its saved chats (`<GEMINI_CLI_HOME or ~>/.gemini/tmp/<project>/chats/
 * session-*.jsonl`, a subagent's in `chats/<parent session>/`), one JSON record per line: the
 * first names the `sessionId`; a `gemini` message carries `tokens` (input, output, cached,
 * thoughts, tool, total) and its `model`, and is written again under the same `id` when its tool
 * calls ran, so each message counts once. Gemini counts cached tokens inside `input`; thoughts are
 * billed as output and tool-use prompts as input, so the four kinds add up to `total`. Lines that
 * edit the chat (`$set`, `$rewind`) spend nothing.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { tokenCount } from '../../../shared/usage/tokens'
import { homeOf, SESSION_ID } from './folders'
import { join } from 'node:path'
import { grownBy, obj, text } from './seen'
import type { RecordUsage, SeenMessages, UsageReader } from './types'

/** What Gemini CLI's reader carries between records. */
export interface GeminiUsageState {
  seen: SeenMessages
}

/** `<project>/chats/session-<time>-<short id>.jsonl` (the id is read from the file), or a subagent's `<project>/chats/<session>/<agent>.jsonl`. */
const MAIN_RE = /^[^/]+\/chats\/session-[^/]+\.jsonl$/
const SUB_RE = new RegExp(`^[^/]+/chats/(${SESSION_ID})/[^/]+\\.jsonl$`)

/** Gemini CLI chats. */
export const geminiUsage: UsageReader<GeminiUsageState> = {
  harness: Harness.gemini,
  roots: (env) => {
    const base = env.GEMINI_CLI_HOME || homeOf(env)
    return base ? [join(base, '.gemini', 'tmp')] : []
  },
  recordFile: (rel) => {
    const sub = SUB_RE.exec(rel)
    if (sub) return { session_id: sub[1]! }
    // a main chat's name holds only the first part of its id: the whole id is in its first record
    return MAIN_RE.test(rel) ? { session_id: null } : null
  },
  // <project>/chats and a subagent folder inside it
  prune: (dir) => {
    const parts = dir.split('/')
    return parts.length > 3 || (parts.length >= 2 && parts[1] !== 'chats')
  },
  wanted: (line) => line.includes('"tokens"') || line.includes('"sessionId"'),
  start: () => ({ seen: [] }),
  read(r, state): RecordUsage {
    const facts = { session_id: text(r.sessionId) }
    const t = obj(r.tokens)
    if (r.type !== 'gemini' || !t) return { usage: [], facts }
    const cached = tokenCount(t.cached)
    const counts = {
      input: Math.max(0, tokenCount(t.input) - cached) + tokenCount(t.tool),
      output: tokenCount(t.output) + tokenCount(t.thoughts),
      cache_write: 0,
      cache_read: cached
    }
    const id = text(r.id)
    const tokens = id ? grownBy(state.seen, id, counts) : counts
    return { usage: [{ at: text(r.timestamp) ?? null, model: text(r.model) ?? 'unknown', tokens }], facts }
  }
}
