/**
 * The working files of `safeEdit` beside the file it edits, and what happens to them after a
 * crash. Both are dot-names that do not end in `.md`, so nothing takes them for a role file or a
 * memory log:
 * - `.<file>.muster-<pid>-<hex>.tmp`: the new content before it is linked into place. Only ever a
 *   copy of bytes Muster computed: once its process is gone it is deleted.
 * - `.<file>.muster-aside-<pid>-<hex>`: a version of the file that was moved off the path and is
 *   watched for late writes. After a crash it may hold an agent's bytes: it is deleted only when
 *   every one of its lines is in the current file, otherwise kept and reported by lint.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const NAME = /^\.(.+)\.muster-(aside-)?(\d+)-[0-9a-f]+(\.tmp)?$/

/** A temp-file name for new content of `path`, in the same folder. */
export function tmpName(path: string): string {
  return join(dirname(path), `.${basename(path)}.muster-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

/** A name to move the current version of `path` to, in the same folder. */
export function asideName(path: string): string {
  return join(dirname(path), `.${basename(path)}.muster-aside-${process.pid}-${randomBytes(4).toString('hex')}`)
}

/** A leftover working file of some Muster process. */
export interface Leftover {
  /** The leftover's own name in the folder. */
  name: string
  /** The file it belongs to (`build.md`). */
  file: string
  kind: 'tmp' | 'aside'
  pid: number
}

/** Parses a folder entry name; null when it is not a Muster working file. */
export function parseLeftover(name: string): Leftover | null {
  const m = NAME.exec(name)
  if (!m || !!m[2] === !!m[4]) return null
  return { name, file: m[1]!, kind: m[2] ? 'aside' : 'tmp', pid: Number(m[3]) }
}

/** True while a process with this id exists (EPERM: it exists but is not ours). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
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

/** The leftovers of dead processes among the entry names of a folder (of `file` only, when given). */
export function deadAmong(names: readonly string[], file?: string): Leftover[] {
  const out: Leftover[] = []
  for (const n of names) {
    if (!n.startsWith(file ? `.${file}.muster-` : '.') || !n.includes('.muster-')) continue
    const l = parseLeftover(n)
    if (l && (!file || l.file === file) && !processAlive(l.pid)) out.push(l)
  }
  return out
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
