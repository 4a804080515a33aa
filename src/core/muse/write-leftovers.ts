/**
 * The working files of `safeEdit` beside the file it edits, and what happens to them after a
 * crash. Both are dot-names that do not end in `.md`, so nothing takes them for a role file or a
 * memory log:
 * - `.<file>.muster-<pid>-<hex>.tmp`: the new content before it is renamed into place (or a second
 *   link to a replaced version being put back). Only ever bytes Muster computed or a name for an
 *   inode another name still holds: once its process is gone it is deleted.
 * - `.<file>.muster-aside-<pid>-<hex>`: a hard link to a version of the file that a swap replaced,
 *   watched for late writes. After a crash it may hold an agent's bytes: it is deleted only when
 *   every one of its lines is in the current file, otherwise kept and reported by lint.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { deadAmong, type Leftover } from './leftover-names'

/** A temp-file name for new content of `path`, in the same folder. */
export function tmpName(path: string): string {
  return join(dirname(path), `.${basename(path)}.muster-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

/** A name for a hard link to the version of `path` a swap replaces, in the same folder. */
export function asideName(path: string): string {
  return join(dirname(path), `.${basename(path)}.muster-aside-${process.pid}-${randomBytes(4).toString('hex')}`)
}

/** Working files in `dir` left by Muster processes that no longer run. */
export async function deadLeftovers(dir: string, file?: string): Promise<Leftover[]> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch {
    return []
  }
  return deadAmong(names, file)
}

/**
 * Cleans up after crashed edits of `path`: dead temp files are deleted, dead aside copies are
 * deleted when every line of theirs is in the current file; the rest stay for lint to report.
 */
export async function sweepLeftovers(path: string): Promise<void> {
  const dir = dirname(path)
  const dead = await deadLeftovers(dir, basename(path))
  if (dead.length === 0) return
  const current = await fs.readFile(path).catch(() => null)
  const have = new Set(current ? current.toString('utf8').split('\n') : [])
  for (const l of dead) {
    const p = join(dir, l.name)
    if (l.kind === 'tmp') {
      await fs.rm(p, { force: true })
      continue
    }
    const text = await fs.readFile(p, 'utf8').catch(() => null)
    if (text !== null && current && text.split('\n').every((line) => have.has(line))) await fs.rm(p, { force: true })
  }
}
