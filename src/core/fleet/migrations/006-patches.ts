/**
 * Migration 6: patches. The audit of every verify / apply / test / ack / revert / submit decision
 * (one row each, never updated), one row per apply run (its phases, evidence and ack), the bytes
 * and modes of the files an apply touched as they were before it (what a revert puts back), and
 * each project's test command.
 */
export const sql = `
CREATE TABLE patch_audit (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  hub TEXT NOT NULL,
  event_id TEXT NOT NULL,
  correlation_id TEXT,
  action TEXT NOT NULL,
  outcome TEXT NOT NULL,
  actor TEXT NOT NULL,
  project TEXT,
  summary TEXT NOT NULL,
  apply_id TEXT,
  detail_json TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX patch_audit_event_idx ON patch_audit(hub, event_id, id);
CREATE INDEX patch_audit_thread_idx ON patch_audit(hub, correlation_id, id);
CREATE TABLE patch_runs (
  id TEXT PRIMARY KEY,
  hub TEXT NOT NULL,
  event_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  pid INTEGER,
  started_at TEXT NOT NULL,
  run_json TEXT NOT NULL,
  -- index entries of the touched paths before a --3way apply (ls-files --stage -z), for the revert
  index_before BLOB
);
CREATE INDEX patch_runs_event_idx ON patch_runs(hub, event_id, started_at);
CREATE TABLE patch_snapshots (
  run_id TEXT NOT NULL,
  path TEXT NOT NULL,
  existed INTEGER NOT NULL,
  mode INTEGER,
  link TEXT,
  content BLOB,
  after_sha TEXT,
  -- the topmost folder above an absent file that did not exist either (a revert removes it if empty)
  created_dir TEXT,
  PRIMARY KEY (run_id, path)
);
CREATE TABLE project_patch_settings (
  project TEXT PRIMARY KEY COLLATE NOCASE,
  test_command TEXT,
  test_timeout_ms INTEGER
);
`
