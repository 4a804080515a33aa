/** Migration 1: registered projects and key/value settings. */
export const sql = `
CREATE TABLE projects (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  key TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL UNIQUE,
  added_at TEXT NOT NULL
);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value_json TEXT NOT NULL
);
`
