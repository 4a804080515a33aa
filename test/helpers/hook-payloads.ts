/** Hook payloads several approval tests send, as the JSON text a hook reads on stdin. */

/**
 * Claude Code's PreToolUse for a Bash call with `input` (session s-1 in /work/muse, tool use
 * toolu_01), its transcript at `transcript`.
 */
export function claudeBashJson(input: { command: string; description?: string }, transcript = '/h/.claude/projects/x/s-1.jsonl'): string {
  return JSON.stringify({
    session_id: 's-1',
    transcript_path: transcript,
    cwd: '/work/muse',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: input,
    tool_use_id: 'toolu_01'
  })
}

/** The call Claude Code's PreToolUse for Bash with `input` (session s in /work/muse) parses to, as a hook job carries it. */
export function claudeBashCall(input: { command: string; description?: string }) {
  return {
    harness: 'claude-code',
    event: 'PreToolUse',
    session_id: 's',
    cwd: '/work/muse',
    tool_use_id: null,
    tool_name: 'Bash',
    tool_input: input
  }
}
