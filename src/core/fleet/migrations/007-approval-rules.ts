/**
 * Migration 7: the approvals allowlist. A rule is three globs (agent, tool name, input); `hits`
 * and `last_hit_at` count how often it answered a hook (written by `muster approve-hook`).
 */
export const sql = `
CREATE TABLE IF NOT EXISTS approval_rules (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agent_pattern TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  input_pattern TEXT NOT NULL,
  note TEXT,
  created_at TEXT NOT NULL,
  hits INTEGER NOT NULL DEFAULT 0,
  last_hit_at TEXT,
  UNIQUE (agent_pattern, tool_name, input_pattern)
);
`
