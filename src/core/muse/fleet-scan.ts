/**
 * Reads every role file of a set of projects into digests (role-digest.ts), through the parse
 * cache (parse-cache.ts): a file whose stamp is unchanged is neither read nor parsed, in this
 * process or, with the state DB, in the next one. The overview, the directive and lint views and
 * `muster status` all read role files through one RoleCache per service.
 */
import type { Project } from '../../shared/api'
import type { Db } from '../sqlite'
import { ParseCache, stampOf, type FileStamp } from './parse-cache'
import type { RoleDigest } from './parse-role'
import { digestRole } from './role-digest'
import { countsOf, entryPath, museDir, readMuseListing, throughSwaps, type MuseListing, type RoleCounts } from './role-files'
import { noteSize } from './safe-write-settle'
import { asyncScanFs, type ScanFs } from './scan-fs'

/** What `stat` says about a role file, as the views show it. */
export interface FileFacts {
  sizeBytes: number
  modifiedAt: string
}

/** A role file's digest with what `stat` said about it. */
export interface ScannedRole extends RoleDigest, FileFacts {}

/** The parsed role files of one project; `unreadable` lists files that could not be read. */
export interface ScannedProject {
  project: Project
  roles: ScannedRole[]
  unreadable: { file: string; reason: string }[]
  /** The listing of `.muse/` the scan took (null: no folder), so lint need not list it again. */
  listing?: MuseListing | null
}

/** Options of a RoleCache. */
export interface RoleCacheOptions {
  /** The state DB holding the persistent cache; without it the cache lives in memory only. */
  db?: Db | null
  /** File-system calls (default: non-blocking). */
  fs?: ScanFs
  /** Clock for the cache's racy-timestamp rule (tests). */
  now?: () => number
}

/** Role-file digests and counts through the parse cache; counts what it parsed (tests and the bench). */
export class RoleCache {
  private readonly cache: ParseCache
  private readonly now: () => number
  /** The file-system calls every read of this cache (and of the project status using it) makes. */
  readonly fs: ScanFs
  /** Files read and parsed, and files answered from the cache, since creation. */
  readonly stats = { parsed: 0, cached: 0 }

  constructor(opts: RoleCacheOptions = {}) {
    this.cache = new ParseCache(opts.db ?? null)
    this.fs = opts.fs ?? asyncScanFs
    this.now = opts.now ?? Date.now
  }

  /** The digest of `path` (file name `file`), parsing it only when its stamp changed. */
  async read(path: string, file: string): Promise<ScannedRole> {
    const st = await this.fs.stat(path)
    noteSize(path, st.size) // a file much shorter at edit time is then a rewrite to wait out
    const stamp = stampOf(st)
    let digest = this.cache.digest(path, stamp)
    if (digest) this.stats.cached++
    else digest = await this.parse(path, file, stamp)
    return { ...digest, ...facts(st) }
  }

  /** The overview's counts of `path` (file name `file`): from the cache's small column when unchanged, else parsed. */
  async readCounts(path: string, file: string): Promise<RoleCounts & FileFacts> {
    const st = await this.fs.stat(path)
    noteSize(path, st.size)
    const stamp = stampOf(st)
    const counts = this.cache.counts(path, stamp)
    if (counts) {
      this.stats.cached++
      return { ...counts, ...facts(st) }
    }
    return { ...countsOf(await this.parse(path, file, stamp)), ...facts(st) }
  }

  /** Forgets cached files of `dir` not in `files` (its current listing). */
  retainIn(dir: string, files: readonly string[]): void {
    this.cache.retainIn(dir, files)
  }

  /** Forgets cached files outside the `.muse` folders of `projects` (after scanning all of them). */
  retainProjects(projects: readonly Project[]): void {
    this.cache.retainDirs(projects.map((p) => museDir(p.path)))
  }

  /** Writes new entries to the state DB (best-effort, see ParseCache.flush). */
  flush(): void {
    this.cache.flush()
  }

  private async parse(path: string, file: string, stamp: FileStamp): Promise<RoleDigest> {
    const readAt = this.now()
    const digest = digestRole(file, await this.fs.readFile(path))
    this.stats.parsed++
    this.cache.put(path, stamp, digest, readAt)
    return digest
  }
}

function facts(st: { size: number; mtime: Date }): FileFacts {
  return { sizeBytes: st.size, modifiedAt: st.mtime.toISOString() }
}

/** Parses every role file of one project. */
export async function scanProject(project: Project, cache: RoleCache): Promise<ScannedProject> {
  const listing = await readMuseListing(project.path, cache.fs)
  const files = listing?.files ?? []
  const dir = museDir(project.path)
  cache.retainIn(dir, files)
  const roles: ScannedRole[] = []
  const unreadable: ScannedProject['unreadable'] = []
  await Promise.all(
    files.map(async (file) => {
      try {
        roles.push(await throughSwaps(() => cache.read(entryPath(dir, file), file)))
      } catch (err) {
        unreadable.push({ file, reason: (err as NodeJS.ErrnoException).code ?? String(err) })
      }
    })
  )
  roles.sort((a, b) => a.file.localeCompare(b.file))
  return { project, roles, unreadable, listing }
}

/** Parses every role file of every project given (and saves new digests). */
export async function scanProjects(projects: Project[], cache: RoleCache): Promise<ScannedProject[]> {
  const scanned = await Promise.all(projects.map((p) => scanProject(p, cache)))
  cache.flush()
  return scanned
}
