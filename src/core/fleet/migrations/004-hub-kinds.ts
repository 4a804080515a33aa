/**
 * Migration 4: the hub registry holds local hubs (a palace folder) and, later, remote ones (a
 * MemPalace hub server's URL plus the file in Muster's home holding its bearer token, mode 0600;
 * the token itself never enters the DB). SQLite cannot relax `palace NOT NULL` in place, so the
 * table is rebuilt; every existing hub becomes `kind = 'local'`. Inbox cursors stay keyed by
 * location (the palace path, or the URL).
 */
export const sql = `
CREATE TABLE hubs_v4 (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  kind TEXT NOT NULL DEFAULT 'local' CHECK (kind IN ('local', 'remote')),
  palace TEXT UNIQUE,
  url TEXT UNIQUE,
  token_file TEXT,
  added_at TEXT NOT NULL,
  CHECK ((kind = 'local' AND palace IS NOT NULL AND url IS NULL AND token_file IS NULL)
      OR (kind = 'remote' AND url IS NOT NULL AND palace IS NULL))
);
INSERT INTO hubs_v4 (name, kind, palace, added_at) SELECT name, 'local', palace, added_at FROM hubs;
DROP TABLE hubs;
ALTER TABLE hubs_v4 RENAME TO hubs;
`
