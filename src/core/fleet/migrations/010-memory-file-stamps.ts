/**
 * Migration 10: the memory index keeps each file's whole stamp (src/shared/file-stamp.ts), not
 * only its size and mtime, so a file replaced by a rename or rewritten with its old mtime put back
 * is indexed again. Rows indexed before have no stamp (-1): they are indexed again once.
 */
export const sql = `
ALTER TABLE memory_files ADD COLUMN dev INTEGER NOT NULL DEFAULT -1;
ALTER TABLE memory_files ADD COLUMN ino INTEGER NOT NULL DEFAULT -1;
ALTER TABLE memory_files ADD COLUMN ctime_ms REAL NOT NULL DEFAULT -1;
`
