/**
 * The stamps of everything a project's status card is computed from, and the check that they still
 * hold. Two projects with equal stamps have equal cards (except the card's age, which moves with
 * the clock), so a card computed between two equal stamps can be kept under them and shown again
 * for as long as they hold (`muster status`'s snapshot, src/cli/status-snapshot.ts).
 *
 * What a card depends on, and what stamps it:
 * - which role files `.muse/` lists: the folder's own stamp (adding, removing or renaming an entry
 *   changes its mtime and ctime), and for entries that are links but not role files (a link to a
 *   folder), that they still do not point at a file;
 * - each role file's content: its file stamp (src/shared/file-stamp.ts), as the parse cache keys it;
 * - the newest daily log and last change in `memory/`: the folder's stamp and each note's mtime.
 * Checking stamps takes one `stat` per folder and file and no listing. Every call is blocking:
 * only for a one-shot process.
 */
import { readdirSync, statSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { RACY_MS, fileStamp, stampHolds, stampSettled, type FileStamp } from '../../shared/file-stamp'
import { entryPath, museDir, readMuseListingNow } from '../muse'
import { memoryNotes } from './project-status'

/** A role file's name and stamp. */
export type RoleStamp = [string, FileStamp]

/** One version of a project's role files and memory notes. */
export interface ProjectStamps {
  muse: FileStamp
  /** The role files, in listing order. */
  roles: RoleStamp[]
  /** Entries of `.muse/` that are links to something other than a file (a folder, nothing). */
  otherLinks: string[]
  /** `memory/` (null: none, or not a folder). */
  memory: FileStamp | null
  /** The `.md` notes of `memory/` as [name, mtimeMs] (-1: vanished while listed). */
  notes: [string, number][]
}

/**
 * The stamps of the project at `projectPath` now, from a listing of its folders; null when there
 * is nothing to keep a card under: no `.muse/` folder, a swap under way, a file that cannot be `stat`ed.
 */
export function projectStampsNow(projectPath: string): ProjectStamps | null {
  try {
    const dir = museDir(projectPath)
    const muse = dirStamp(statSync(dir, { throwIfNoEntry: false }))
    const listing = muse && readMuseListingNow(projectPath)
    if (!muse || !listing) return null
    const roles: RoleStamp[] = []
    for (const file of listing.files) {
      const st = statSync(entryPath(dir, file), { throwIfNoEntry: false })
      if (!st) return null
      roles.push([file, fileStamp(st)])
    }
    const otherLinks = listing.otherLinks
    const memoryDir = join(projectPath, 'memory')
    const memory = dirStamp(statSync(memoryDir, { throwIfNoEntry: false }))
    const notes: [string, number][] = memory ? listNotes(memoryDir).map((n) => [n, noteTime(memoryDir, n)]) : []
    return { muse, roles, otherLinks, memory, notes }
  } catch {
    return null
  }
}

/** `statSync` without throwing for a missing path (one options object for thousands of calls). */
const MAY_BE_MISSING = { throwIfNoEntry: false } as const

/**
 * True when the project at `projectPath` still has the stamps `s` (taken by `projectStampsNow`).
 * Plain indexed loops: this runs cold (interpreted) for thousands of files per `muster status`.
 */
export function stampsHold(projectPath: string, s: ProjectStamps): boolean {
  try {
    // registered paths are absolute and normal: joined without join's normalising pass
    const dir = entryPath(projectPath, '.muse')
    if (!sameDir(s.muse, statSync(dir, MAY_BE_MISSING))) return false
    for (let i = 0; i < s.roles.length; i++) {
      const r = s.roles[i]!
      if (!stampHolds(r[1], statSync(entryPath(dir, r[0]), MAY_BE_MISSING))) return false
    }
    for (let i = 0; i < s.otherLinks.length; i++) if (statSync(entryPath(dir, s.otherLinks[i]!), MAY_BE_MISSING)?.isFile()) return false
    const memoryDir = entryPath(projectPath, 'memory')
    const memory = statSync(memoryDir, MAY_BE_MISSING)
    if (s.memory === null ? dirStamp(memory) !== null : !sameDir(s.memory, memory)) return false
    for (let i = 0; i < s.notes.length; i++) if (noteTime(memoryDir, s.notes[i]![0]) !== s.notes[i]![1]) return false
    return true
  } catch {
    return false
  }
}

/** True when `a` and `b` are the same version (both from `projectStampsNow`). */
export function sameProjectStamps(a: ProjectStamps, b: ProjectStamps): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * True when every time in `s` is at least RACY_MS before `at` (ms since the epoch): a file written
 * again within the same timestamp tick, keeping its size, could otherwise keep a stale card (the
 * parse cache's rule, see parse-cache.ts).
 */
export function settledAt(s: ProjectStamps, at: number): boolean {
  return (
    s.roles.every((r) => stampSettled(r[1], at)) &&
    stampSettled(s.muse, at) &&
    (s.memory === null || stampSettled(s.memory, at)) &&
    s.notes.every((n) => n[1] <= at - RACY_MS)
  )
}

function dirStamp(st: Stats | undefined): FileStamp | null {
  return st?.isDirectory() ? fileStamp(st) : null
}

function sameDir(d: FileStamp, st: Stats | undefined): boolean {
  return !!st?.isDirectory() && stampHolds(d, st)
}

/** The notes of `memory/` (none when it cannot be listed, as the card reads it). */
function listNotes(dir: string): string[] {
  try {
    return memoryNotes(readdirSync(dir, { withFileTypes: true }))
  } catch {
    return []
  }
}

function noteTime(dir: string, name: string): number {
  return statSync(entryPath(dir, name), MAY_BE_MISSING)?.mtimeMs ?? -1
}
