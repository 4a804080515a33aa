/**
 * Migration 3: registered MemPalace hubs and the operator's inbox cursor per hub. `IF NOT EXISTS`
 * so the migration is harmless if it ever runs on a DB that already has the tables.
 */
export const sql = `
CREATE TABLE IF NOT EXISTS hubs (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  palace TEXT NOT NULL UNIQUE,
  added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS inbox_cursors (
  hub TEXT NOT NULL,
  agent TEXT NOT NULL,
  last_seq INTEGER NOT NULL,
  last_event_id TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (hub, agent)
);
`
