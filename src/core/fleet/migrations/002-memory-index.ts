/**
 * Migration 2: the memory search index. One FTS5 row per memory entry or paragraph (trigram
 * tokenizer, so CJK text is findable), and the size/mtime of every indexed file so that only
 * changed files are re-indexed.
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
  PRIMARY KEY (project, file)
);
`
