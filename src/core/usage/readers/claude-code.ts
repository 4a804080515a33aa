/**
 * Claude Code's usage: its transcripts (`<config>/projects/<folder>/<session>.jsonl`, subagents
 * in `<session>/subagents/*.jsonl`), one JSON record per line. An `assistant` record carries the
 * API message with its `usage` (input, output, cache creation and cache read tokens) and `model`;
 * a message of several content blocks is written as several records with the same `message.id`,
 * so each message counts once (the largest counts seen for it). `<synthetic>` messages (Claude
 * Code's own error notes) used no model. Every record names the `sessionId` and the `cwd`.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { tokenCount } from '../../../shared/usage/tokens'
import { rootFrom, SESSION_ID } from './folders'
import { grownBy, obj, text } from './seen'
import type { RecordUsage, SeenMessages, UsageReader } from './types'

/** What Claude Code's reader carries between records. */
export interface ClaudeUsageState {
  seen: SeenMessages
}

/** The model Claude Code names on messages it made itself. */
const SYNTHETIC = '<synthetic>'

/** `<folder>/<session>.jsonl`, or a subagent's `<folder>/<session>/subagents/<agent>.jsonl` (the session's). */
const FILE_RE = new RegExp(`^[^/]+/(${SESSION_ID})(?:\\.jsonl|/subagents/[^/]+\\.jsonl)$`)

/** Claude Code transcripts. */
export const claudeCodeUsage: UsageReader<ClaudeUsageState> = {
  harness: Harness.claudeCode,
  roots: (env) => rootFrom(env, 'CLAUDE_CONFIG_DIR', '.claude', 'projects'),
  recordFile: (rel) => {
    const m = FILE_RE.exec(rel)
    return m ? { session_id: m[1]! } : null
  },
  // <folder>/<session>/subagents only
  prune: (dir) => {
    const parts = dir.split('/')
    return parts.length > 3 || (parts.length === 3 && parts[2] !== 'subagents')
  },
  wanted: (line) => line.includes('"usage"') || line.includes('"sessionId"'),
  start: () => ({ seen: [] }),
  read(r, state): RecordUsage {
    const facts = { session_id: text(r.sessionId), cwd: text(r.cwd) }
    const message = obj(r.message)
    const usage = obj(message?.usage)
    if (r.type !== 'assistant' || !message || !usage) return { usage: [], facts }
    const model = text(message.model) ?? 'unknown'
    if (model === SYNTHETIC) return { usage: [], facts }
    const counts = {
      input: tokenCount(usage.input_tokens),
      output: tokenCount(usage.output_tokens),
      cache_write: tokenCount(usage.cache_creation_input_tokens),
      cache_read: tokenCount(usage.cache_read_input_tokens)
    }
    const id = text(message.id) ?? text(r.requestId) ?? text(r.uuid)
    const tokens = id ? grownBy(state.seen, id, counts) : counts
    return { usage: [{ at: text(r.timestamp) ?? null, model, tokens }], facts }
  }
}
