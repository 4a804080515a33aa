/** Wording of the Approvals screen: waiting times, decisions and who made them. */
import { readToolCall, summarizeToolCall, type ToolCall } from '../../../../shared/approvals/tool-call'
import type { ApprovalDecisionInfo, ApprovalItem } from '../../../../shared/api'
import { ALLOWLIST_DECIDER_PREFIX, DECIDED_BY_TIMEOUT } from '../../../../shared/api'
import { expiryDeadline } from '../../../../shared/approvals/expiry'

/** A path shown relative to the agent's folder when it lies inside it. */
export function shortPath(path: string, cwd: string | null): string {
  if (!cwd) return path
  const base = cwd.endsWith('/') || cwd.endsWith('\\') ? cwd : `${cwd}/`
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : path
}

/** The call of a request, its paths made relative to the agent's folder. */
export function displayCall(item: Pick<ApprovalItem, 'tool_name' | 'tool_input' | 'cwd'>): ToolCall {
  const call = readToolCall(item.tool_name, item.tool_input)
  return 'path' in call ? { ...call, path: shortPath(call.path, item.cwd) } : call
}

/** The one-line summary of a request for lists ("Edit: .env.production"); `bare` drops the tool name. */
export function displaySummary(item: Pick<ApprovalItem, 'tool_name' | 'tool_input' | 'cwd'>, bare = false): string {
  const call = displayCall(item)
  const line = summarizeToolCall(call)
  return bare && call.kind !== 'mcp' && call.kind !== 'other' ? line.slice(call.tool.length + 2) : line
}

/** What the agent wants, in words, for the detail pane's title. */
export function wantsTo(call: ToolCall): string {
  switch (call.kind) {
    case 'bash':
      return 'wants to run a command'
    case 'edit':
      return 'wants to edit a file'
    case 'write':
      return 'wants to write a file'
    case 'mcp':
      return 'wants to call an MCP tool'
    case 'fetch':
      return 'wants to fetch from the web'
    default:
      return `wants to use ${call.tool}`
  }
}

/** The tool's short label for chips: MCP tools are "MCP". */
export function toolLabel(tool: string): string {
  return tool.startsWith('mcp__') ? 'MCP' : tool
}

/** "42 s", "3 min 05 s", "1 h 02 min", "2 d 3 h". */
export function formatWait(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`
  const h = Math.floor(m / 60)
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

/** How long a request waited: until its decision, or until now. */
export function waitedMs(item: Pick<ApprovalItem, 'created_at' | 'decision'>, now: number): number {
  const end = item.decision ? Date.parse(item.decision.created_at) : now
  return end - Date.parse(item.created_at)
}

/** Who decided, in words: the operator's id, "allowlist rule X", "timeout". */
export function deciderLabel(d: Pick<ApprovalDecisionInfo, 'decided_by'>): string {
  if (d.decided_by.startsWith(ALLOWLIST_DECIDER_PREFIX)) return `allowlist rule ${d.decided_by.slice(ALLOWLIST_DECIDER_PREFIX.length)}`
  if (d.decided_by === DECIDED_BY_TIMEOUT) return 'timeout (nobody answered)'
  return d.decided_by
}

/** The label of a request's state. */
export const STATE_LABEL: Record<ApprovalItem['state'], string> = {
  pending: 'Waiting',
  allow: 'Allowed',
  deny: 'Denied',
  timeout: 'Timed out',
  abandoned: 'Abandoned',
  expired: 'Expired',
  withdrawn: 'Withdrawn'
}

/** Seconds until a pending request's hook stops waiting, or null. */
export function secondsLeft(item: Pick<ApprovalItem, 'expires_at'>, now: number): number | null {
  return item.expires_at ? Math.round((Date.parse(item.expires_at) - now) / 1000) : null
}

/** What happens to a pending request nobody answers, and when, in words. */
export interface UnansweredEnd {
  /** The detail pane's label ("Hook gives up", or "If unanswered" for a test request). */
  label: string
  /** The value beside it ("in 9 min 12 s", "now", "unknown"). */
  text: string
  /** The waiting time's tooltip, after "waiting since …; " (null when nothing is known). */
  hint: string | null
  /** Under a minute left. */
  soon: boolean
}

/**
 * What happens to a pending request nobody answers. A real request's hook gives up at its
 * timeout. A test request (the Connect screen, `muster connect --test`) has no hook waiting for
 * it: unanswered, it leaves the inbox as expired once its own wait and the grace have passed
 * (the inbox's expiry rule), and nothing runs.
 */
export function unansweredEnd(item: Pick<ApprovalItem, 'expires_at' | 'created_at' | 'timeout_ms' | 'test'>, now: number): UnansweredEnd {
  if (item.test) {
    const left = Math.round((expiryDeadline(item.created_at, item.timeout_ms) - now) / 1000)
    const when = left > 0 ? `in ${formatWait(left * 1000)}` : 'now'
    return {
      label: 'If unanswered',
      text: `leaves the inbox ${when}; nothing runs`,
      hint: `a test request: no agent waits for it; unanswered, it leaves the inbox ${when}`,
      soon: left < 60
    }
  }
  const left = secondsLeft(item, now)
  if (left === null) return { label: 'Hook gives up', text: 'unknown', hint: null, soon: false }
  return {
    label: 'Hook gives up',
    text: left > 0 ? `in ${formatWait(left * 1000)}` : 'now',
    hint: `the hook gives up in ${formatWait(Math.max(0, left) * 1000)}`,
    soon: left < 60
  }
}
