/**
 * Replacing a small file whole: the text goes to a temporary name beside it, renamed into place,
 * so a reader sees the old file or the new one, never a torn one (and the file gets a new inode
 * every time). Light on purpose (node:fs only): the hook's fast path reads such files.
 */
import { renameSync, unlinkSync, writeFileSync } from 'node:fs'

/** Writes `text` to `file` through a temporary file renamed into place (mode 0600); the temporary is removed on failure. */
export function replaceFileSync(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  try {
    writeFileSync(tmp, text, { mode: 0o600 })
    renameSync(tmp, file)
  } catch (err) {
    try {
      unlinkSync(tmp)
    } catch {
      // never written
    }
    throw err
  }
}
