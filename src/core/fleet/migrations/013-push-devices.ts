/**
 * Migration 13: the devices subscribed to phone push (`core/push`): a browser push subscription
 * each (its endpoint, a capability URL, and the keys its messages are encrypted to), the name the
 * operator gave it, and how its last message went.
 */
export const sql = `
CREATE TABLE IF NOT EXISTS push_devices (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  last_push_at TEXT,
  last_error TEXT
);
`
