/**
 * Reads every role file of a set of projects into digests (role-digest.ts), through the parse
 * cache (parse-cache.ts): a file whose stamp is unchanged is neither read nor parsed, in this
 * process or, with the state DB, in the next one. The overview, the directive and lint views and
 * `muster status` all read role files through one RoleCache per service.
 */
import type { Stats } from 'node:fs'
import type { MuseHub, Project } from '../../shared/api'
import type { Db } from '../sqlite'
import { fileStamp, type FileStamp } from '../../shared/file-stamp'
import { ParseCache } from './parse-cache'
import type { RoleDigest } from './parse-role'
import { builtDigestPool, DigestStopped, type DigestPool } from './digest-pool'
import { detectHub } from './hub-project'
import { digestRole } from './role-digest'
import { countsOf, entryPath, museDir, readMuseListing, throughSwaps, type MuseListing, type RoleCounts } from './role-files'
import { noteSeenSize } from './safe-write-settle'
import { asyncScanFs, mtimeIso, type ScanFs } from './scan-fs'

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

/** Every parsed project plus the hub, ready for target resolution. */
export interface FleetView {
  projects: ScannedProject[]
  hub: MuseHub
}

/** Uncached files a scan must find before it hands them to the digest pool (a worker costs ~30 ms to start). */
export const POOL_MIN_FILES = 64
/**
 * A file this large is digested on the pool even alone: parsing it here would hold the event loop
 * for a second or more (a 100 MB role file: over 3 s), and `muster serve` could not even stop.
 */
export const POOL_MIN_BYTES = 4 * 1024 * 1024

/** Options of a RoleCache. */
export interface RoleCacheOptions {
  /** Workers to digest many uncached files on (default: the built pool, if any; null: none). */
  pool?: DigestPool | null
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
  private readonly pool: DigestPool | null
  /** The file-system calls every read of this cache (and of the project status using it) makes. */
  readonly fs: ScanFs
  /** Files read and parsed, and files answered from the cache, since creation. */
  readonly stats = { parsed: 0, cached: 0 }

  constructor(opts: RoleCacheOptions = {}) {
    this.cache = new ParseCache(opts.db ?? null)
    this.fs = opts.fs ?? asyncScanFs
    this.now = opts.now ?? Date.now
    this.pool = opts.pool === undefined ? builtDigestPool() : opts.pool
  }

  /** The digest of `path` (file name `file`), parsing it only when its stamp changed. */
  async read(path: string, file: string): Promise<ScannedRole> {
    const [r] = await this.readAll([{ path, file }])
    if (r!.status === 'rejected') throw r!.reason
    return r!.value
  }

  /**
   * The digests of many files at once (a scan). Unchanged files come from the cache; the others are
   * read and digested on the pool's workers when there are at least `POOL_MIN_FILES` of them (else
   * here). A file the cache has never seen needs no `stat` first: when a scan finds many such
   * files (a first start, a new fleet), the workers take each one's stamp from its open descriptor
   * as they read it, and the main thread does not wait for 1,600 `stat`s before the first batch
   * leaves. A file that cannot be read gives its error.
   */
  async readAll(items: { path: string; file: string }[]): Promise<PromiseSettledResult<ScannedRole>[]> {
    const out: PromiseSettledResult<ScannedRole>[] = new Array(items.length)
    const fresh: number[] = []
    const known: number[] = []
    items.forEach((it, i) => (this.cache.knows(it.path) ? known : fresh).push(i))
    if (this.pool && fresh.length >= POOL_MIN_FILES)
      await Promise.all([this.readFresh(items, fresh, out), this.readKnown(items, known, out)])
    else await this.readKnown(items, [...known, ...fresh], out)
    return out
  }

  /** Reads `which` of `items`, never cached, on the pool: each file's stamp is taken as it is read. */
  private async readFresh(
    items: { path: string; file: string }[],
    which: number[],
    out: PromiseSettledResult<ScannedRole>[]
  ): Promise<void> {
    const readAt = this.now()
    let stopped: DigestStopped | null = null
    const got = await this.pool!.digestAll(
      which.map((i) => items[i]!),
      { stat: true }
    ).catch((err: unknown) => {
      if (err instanceof DigestStopped) stopped = err
      return null
    })
    if (stopped) {
      for (const i of which) out[i] = { status: 'rejected', reason: stopped }
      return
    }
    const again: number[] = []
    which.forEach((i, k) => {
      const r = got?.[k]
      // a file the worker could not open may be between the two steps of a swap: read again here
      if (!r?.ok || !r.stat) return void again.push(i)
      const { path } = items[i]!
      noteSeenSize(path, r.stat.size, r.stat.ino)
      this.stats.parsed++
      this.cache.put(path, fileStamp(r.stat), r.digest, readAt)
      out[i] = { status: 'fulfilled', value: { ...r.digest, ...facts(r.stat) } }
    })
    if (again.length) await this.readKnown(items, again, out)
  }

  /** Reads `which` of `items`: each is `stat`ed, unchanged ones come from the cache, the others are read. */
  private async readKnown(
    items: { path: string; file: string }[],
    which: number[],
    out: PromiseSettledResult<ScannedRole>[]
  ): Promise<void> {
    const stats = await Promise.allSettled(which.map((i) => throughSwaps(() => this.fs.stat(items[i]!.path))))
    const misses: number[] = []
    stats.forEach((st, k) => {
      const i = which[k]!
      if (st.status === 'rejected') return void (out[i] = st)
      noteSeenSize(items[i]!.path, st.value.size, st.value.ino)
      const digest = this.cache.digest(items[i]!.path, fileStamp(st.value))
      if (!digest) return void misses.push(k)
      this.stats.cached++
      out[i] = { status: 'fulfilled', value: { ...digest, ...facts(st.value) } }
    })
    const readAt = this.now()
    // many files, or one large enough to hold the event loop for long, go to the workers
    const sizeOf = (k: number): number => (stats[k] as PromiseFulfilledResult<Stats>).value.size
    const toPool = this.pool ? (misses.length >= POOL_MIN_FILES ? misses : misses.filter((k) => sizeOf(k) >= POOL_MIN_BYTES)) : []
    let stopped: DigestStopped | null = null
    const pooledList = toPool.length
      ? await this.pool!.digestAll(toPool.map((k) => items[which[k]!]!)).catch((err: unknown) => {
          if (err instanceof DigestStopped) stopped = err
          return null
        })
      : null
    const pooled = new Map(toPool.map((k, n) => [k, pooledList?.[n]]))
    await Promise.all(
      misses.map(async (k) => {
        const i = which[k]!
        const { path, file } = items[i]!
        const st = (stats[k] as PromiseFulfilledResult<Stats>).value
        const got = pooled.get(k)
        // the process is stopping: a file the workers did not finish is not digested here instead
        if (stopped && pooled.has(k)) return void (out[i] = { status: 'rejected', reason: stopped })
        try {
          // a file missing on the worker may be between the two steps of a swap: read again here
          const digest = got?.ok ? got.digest : await throughSwaps(async () => digestRole(file, await this.fs.readFile(path)))
          this.stats.parsed++
          this.cache.put(path, fileStamp(st), digest, readAt)
          out[i] = { status: 'fulfilled', value: { ...digest, ...facts(st) } }
        } catch (err) {
          out[i] = { status: 'rejected', reason: err }
        }
      })
    )
  }

  /** The overview's counts of `path` (file name `file`): from the cache's small column when unchanged, else parsed. */
  async readCounts(path: string, file: string): Promise<RoleCounts & FileFacts> {
    const st = await this.fs.stat(path)
    noteSeenSize(path, st.size, st.ino)
    const stamp = fileStamp(st)
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

function facts(st: { size: number; mtimeMs: number }): FileFacts {
  return { sizeBytes: st.size, modifiedAt: mtimeIso(st) }
}

/** Parses every role file of one project. */
export async function scanProject(project: Project, cache: RoleCache): Promise<ScannedProject> {
  return (await scanAll([project], cache))[0]!
}

/**
 * The fleet as the MUSE views read it (directives, lint): every project scanned while the hub
 * project is detected, then the cache keeps only these projects. `marked`: the operator's hub.
 */
export async function readFleetView(projects: Project[], cache: RoleCache, marked: string | null): Promise<FleetView> {
  const listings = await listAll(projects, cache)
  // the hub is detected while the files are read; the listings tell it which files are absent
  const [scanned, hub] = await Promise.all([readListed(projects, listings, cache), detectHub(projects, marked, listings)])
  cache.flush()
  cache.retainProjects(projects)
  return { projects: scanned, hub }
}

/** Parses every role file of every project given (and saves new digests). */
export async function scanProjects(projects: Project[], cache: RoleCache): Promise<ScannedProject[]> {
  const scanned = await scanAll(projects, cache)
  cache.flush()
  return scanned
}

/** Lists every project's `.muse/`, then reads all their role files in one batch (see `RoleCache.readAll`). */
async function scanAll(projects: Project[], cache: RoleCache): Promise<ScannedProject[]> {
  return readListed(projects, await listAll(projects, cache), cache)
}

/** Every project's listing of `.muse/` (null: no folder). */
function listAll(projects: Project[], cache: RoleCache): Promise<(MuseListing | null)[]> {
  return Promise.all(projects.map((p) => readMuseListing(p.path, cache.fs)))
}

/** Reads the role files of `listings` (one per project) in one batch. */
async function readListed(projects: Project[], listings: (MuseListing | null)[], cache: RoleCache): Promise<ScannedProject[]> {
  const items: { path: string; file: string; at: number }[] = []
  projects.forEach((p, at) => {
    const dir = museDir(p.path)
    const files = listings[at]?.files ?? []
    cache.retainIn(dir, files)
    for (const file of files) items.push({ path: entryPath(dir, file), file, at })
  })
  const read = await cache.readAll(items)
  const scanned: ScannedProject[] = projects.map((project, at) => ({ project, roles: [], unreadable: [], listing: listings[at] }))
  read.forEach((r, i) => {
    const { file, at } = items[i]!
    if (r.status === 'fulfilled') scanned[at]!.roles.push(r.value)
    else scanned[at]!.unreadable.push({ file, reason: (r.reason as NodeJS.ErrnoException).code ?? String(r.reason) })
  })
  for (const sp of scanned) sp.roles.sort((a, b) => a.file.localeCompare(b.file))
  return scanned
}
