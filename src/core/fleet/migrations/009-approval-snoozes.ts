/**
 * Migration 9: snoozed approval requests ("Not now"). A snooze hides a pending request from the
 * inbox and the needs-you queue until `until`; it decides nothing (the agent keeps waiting).
 */
export const sql = `
CREATE TABLE IF NOT EXISTS approval_snoozes (
  correlation_id TEXT PRIMARY KEY,
  until TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`
