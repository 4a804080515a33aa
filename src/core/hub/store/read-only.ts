/**
 * Whether a local hub can be written, decided before anything is touched: a write that would be
 * refused must not create `replica.json`, change the palace folder's mode or start a journal.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { HUB_FILENAME } from './schema'

/** Why `path` cannot be written by this process, or null when it can. */
function notWritable(path: string): string | null {
  try {
    accessSync(path, constants.W_OK)
    return null
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'EROFS' ? 'read-only file system' : `${code ?? 'not writable'}`
  }
}

/** The nearest folder at or above `path` that exists. */
function existingAncestor(path: string): string {
  let dir = path
  while (!existsSync(dir)) {
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  return dir
}

/**
 * Why `palace` cannot be a palace folder (it, or a folder above it, is a file), or null. A path to
 * the hub file itself gets a hint to pass its folder.
 */
export function notAFolder(palace: string): string | null {
  const base = existingAncestor(palace)
  if (statSync(base).isDirectory()) return null
  const hint = base === palace && basename(palace) === HUB_FILENAME ? ` (did you mean its folder ${dirname(palace)}?)` : ''
  return `${base} is a file, not a folder: a hub is a palace folder holding ${HUB_FILENAME}${hint}`
}

/**
 * Why a write to the hub in `palace` would be refused, or null when it may proceed. SQLite in WAL
 * mode needs the file and its folder writable (it creates `-wal` and `-shm` beside the file).
 */
export function writeRefusal(palace: string, file: string): string | null {
  if (existsSync(file)) {
    const d = notWritable(palace)
    if (d) return `its palace folder is not writable: ${d}`
    const f = notWritable(file)
    return f ? `the hub file is not writable: ${f}` : null
  }
  const wrong = notAFolder(palace)
  if (wrong) return wrong
  const base = existingAncestor(palace)
  const d = notWritable(base)
  return d ? `${base === palace ? 'the palace folder' : base} is not writable: ${d}` : null
}
