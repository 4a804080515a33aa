/**
 * Migration 2: the memory search index. One FTS5 row per memory entry or paragraph (trigram
 * tokenizer, so CJK text is findable), and the size/mtime of every indexed file so that only
 * changed files are re-indexed (and deleted by rowid range, not by scanning the FTS table).
 */
export const sql = `
CREATE VIRTUAL TABLE memory_fts USING fts5(
  text,
  project UNINDEXED,
  file UNINDEXED,
  line UNINDEXED,
  date UNINDEXED,
  kind UNINDEXED,
  tokenize = 'trigram'
);
CREATE TABLE memory_files (
  project TEXT NOT NULL,
  file TEXT NOT NULL,
  mtime_ms REAL NOT NULL,
  size INTEGER NOT NULL,
  -- the file's rows in memory_fts are rowids first_rowid..last_rowid (inserted together), so a
  -- changed file is deleted by rowid range instead of a scan of the UNINDEXED columns
  first_rowid INTEGER,
  last_rowid INTEGER,
  PRIMARY KEY (project, file)
);
`
