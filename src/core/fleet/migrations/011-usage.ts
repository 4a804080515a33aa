/**
 * Migration 11: token usage and budgets.
 * - `usage_sources`: each harness record file read (a transcript, a rollout, a chat), where its
 *   last read ended (`file_id` = device:inode, `read_to`, the reader's state) and what it belongs
 *   to (harness, session, the agent and project a hook reported, its cwd);
 * - `usage_hours`: the tokens read from each source, per model and UTC hour, the four kinds apart;
 * - `usage_budgets`: the operator's budgets (a session, an agent today, a project today, the whole
 *   fleet today), in tokens or estimated dollars, each signed by the operator's key;
 * - `usage_releases`: sessions the operator let go on past a budget (signed too).
 */
export const sql = `
CREATE TABLE IF NOT EXISTS usage_sources (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  path TEXT NOT NULL UNIQUE,
  harness TEXT NOT NULL,
  root TEXT NOT NULL,
  session_id TEXT,
  agent TEXT,
  project TEXT,
  cwd TEXT,
  file_id TEXT NOT NULL DEFAULT '',
  read_to INTEGER NOT NULL DEFAULT 0,
  state_json TEXT NOT NULL DEFAULT 'null',
  dropping INTEGER NOT NULL DEFAULT 0,
  size INTEGER NOT NULL DEFAULT 0,
  mtime_ms REAL NOT NULL DEFAULT 0,
  skipped INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  read_at TEXT
);
CREATE INDEX IF NOT EXISTS usage_sources_session_idx ON usage_sources(session_id);
CREATE INDEX IF NOT EXISTS usage_sources_agent_idx ON usage_sources(agent);
CREATE TABLE IF NOT EXISTS usage_hours (
  source_id INTEGER NOT NULL REFERENCES usage_sources(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  hour TEXT NOT NULL,
  input INTEGER NOT NULL DEFAULT 0,
  output INTEGER NOT NULL DEFAULT 0,
  cache_write INTEGER NOT NULL DEFAULT 0,
  cache_read INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (source_id, model, hour)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_hours_hour_idx ON usage_hours(hour);
CREATE TABLE IF NOT EXISTS usage_budgets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  scope TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '',
  tokens INTEGER,
  usd REAL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  signature TEXT,
  UNIQUE (scope, target)
);
CREATE TABLE IF NOT EXISTS usage_releases (
  budget_id INTEGER NOT NULL REFERENCES usage_budgets(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  signature TEXT,
  PRIMARY KEY (budget_id, session_id)
);
`
