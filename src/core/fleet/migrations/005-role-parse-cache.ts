/**
 * Migration 5: the role-file parse cache. One row per role file in `role_parse_cache`: what the
 * overview shows (the parsed L0 as JSON, line count, pending directives, open and done TODOs),
 * valid while the file keeps its identity (dev + inode), size, mtime and ctime and the digest
 * format stays `parser`; and its digest (JSON, what the directive and lint views read) in
 * `role_parse_digest`, a table of its own so that `muster status` scans only the small rows. Lets
 * a new process (the CLI, a restarted app) show an unchanged fleet without reading or parsing it
 * again.
 */
export const sql = `
CREATE TABLE role_parse_cache (
  path TEXT PRIMARY KEY,
  dev INTEGER NOT NULL,
  ino INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ctime_ms REAL NOT NULL,
  parser INTEGER NOT NULL,
  l0 TEXT,
  line_count INTEGER NOT NULL,
  pending INTEGER NOT NULL,
  open_todos INTEGER NOT NULL,
  done_todos INTEGER NOT NULL
);
CREATE TABLE role_parse_digest (
  path TEXT PRIMARY KEY REFERENCES role_parse_cache (path) ON DELETE CASCADE,
  digest TEXT NOT NULL
);
`
