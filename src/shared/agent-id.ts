/**
 * What a valid agent id is: MemPalace's rule (shared brain, hub-logstream spec §7), one flat token
 * `<machine>-<harness>` of `[A-Za-z0-9._-]`, at most as long as the hub's routing fields. Every
 * place that takes an agent id (`--agent` of hooks, notes and rules, the operator's id) uses this.
 */

/** One token of letters, digits, `.`, `_`, `-`. */
export const AGENT_ID_RE = /^[A-Za-z0-9._-]+$/
/** Longest agent id: the hub's routing field limit (MemPalace's `_MAX_ROUTING_LENGTH`). */
export const AGENT_ID_MAX = 256
/** MemPalace's words for an id that breaks the rule. */
export const AGENT_ID_MESSAGE = '--agent must be a single token like mac-claude (machine-harness)'

/** True when `id` is a valid agent id. */
export function isAgentId(id: unknown): id is string {
  return typeof id === 'string' && id.length <= AGENT_ID_MAX && AGENT_ID_RE.test(id)
}
