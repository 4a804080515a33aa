/**
 * Finding and reading the harnesses' record files, incrementally:
 * - a file is read only when it lies, by its real path, inside one of its harness's own folders
 *   (`reader.roots(env)`: HOME and the harness's variables) and has the shape of its records
 *   (`reader.recordFile`); anything else (a path a payload names outside them, a link leading out)
 *   is never opened. The check is made again before every read;
 * - `discover` walks those folders (links are not followed, folders no record can lie in are
 *   skipped) and registers what it finds; `refresh` reads every source whose file changed since
 *   its last read (size, mtime or identity), from where that read ended;
 * - a read is committed with its new offset, exactly once (`UsageStore.commit`): a reader that
 *   lost the race to another process reads again from the new offset.
 * Everything is asynchronous and yields between files, so a first scan of gigabytes of records
 * leaves the event loop of the app or `muster serve` free.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import { DEFAULT_LIMITS, readUsageFile, type ReadLimits } from './line-reader'
import { USAGE_READERS, usageReaderFor, type FolderEnv, type UsageReader } from './readers'
import { UsageStore, type SourceRow } from './usage-store'

/** A record file inside its harness's folder. */
export interface RecordFile {
  /** Its real path. */
  path: string
  /** The real path of the harness folder holding it. */
  root: string
  /** The session its path names (null: read from its records). */
  session_id: string | null
}

/** How deep a walk goes below a root. */
const MAX_DEPTH = 6
/** How many files a walk registers at most (a folder that big is not a harness's). */
const MAX_FILES = 200_000

/** The path of `file` relative to `root` with `/` separators, or null when it is not inside it. */
function inside(root: string, file: string): string | null {
  const rel = relative(root, file)
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null
  return sep === '/' ? rel : rel.split(sep).join('/')
}

/** The real path of `p`, or null when it does not exist. */
async function real(p: string): Promise<string | null> {
  try {
    return await realpath(p)
  } catch {
    return null
  }
}

/**
 * `path` as one of `reader`'s record files, inside one of `roots` (real paths compared), or null
 * when it is not one (outside every root, not a regular file, not shaped like its records).
 */
export async function recordFileIn(reader: UsageReader, path: string, roots: readonly string[]): Promise<RecordFile | null> {
  if (!isAbsolute(path)) return null
  const file = await real(path)
  if (!file) return null
  try {
    if (!(await stat(file)).isFile()) return null
  } catch {
    return null
  }
  for (const r of roots) {
    const root = await real(r)
    if (!root) continue
    const rel = inside(root, file)
    if (rel === null) continue
    const rec = reader.recordFile(rel)
    if (rec) return { path: file, root, session_id: rec.session_id }
  }
  return null
}

/** What a hook knows of a session whose record file it names. */
export interface HookedSession {
  harness: string
  path: string
  session_id?: string | null
  agent?: string | null
  project?: string | null
  cwd?: string | null
}

/** What one refresh did. */
export interface RefreshResult {
  /** Sources read with new tokens or a new state. */
  read: number
  /** Sources that could not be read (their error is stored). */
  failed: number
  /** Lines skipped in this refresh. */
  skipped: number
}

/** Reads the harnesses' records into a state DB's usage tables. */
export class UsageScanner {
  private readonly limits: ReadLimits

  constructor(
    readonly store: UsageStore,
    /** The environment whose harness folders are this machine's (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME). */
    private readonly env: FolderEnv,
    opts: { limits?: ReadLimits } = {}
  ) {
    this.limits = opts.limits ?? DEFAULT_LIMITS
  }

  /** Every folder to look in: the harnesses' folders in this environment and those hooks registered sources in. */
  roots(): { reader: UsageReader; root: string }[] {
    const out = new Map<string, { reader: UsageReader; root: string }>()
    for (const reader of USAGE_READERS)
      for (const root of reader.roots(this.env)) out.set(`${reader.harness}\u0000${root}`, { reader, root })
    for (const { harness, root } of this.store.roots()) {
      const reader = usageReaderFor(harness)
      if (reader) out.set(`${harness}\u0000${root}`, { reader, root })
    }
    return [...out.values()]
  }

  /** Registers the record files found in the harnesses' folders; returns how many were new. */
  async discover(): Promise<number> {
    let added = 0
    let seen = 0
    for (const { reader, root } of this.roots()) {
      const base = await real(root)
      if (!base) continue
      const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
        if (depth > MAX_DEPTH || seen >= MAX_FILES) return
        let entries
        try {
          entries = await readdir(dir, { withFileTypes: true })
        } catch {
          return
        }
        for (const e of entries) {
          const r = rel ? `${rel}/${e.name}` : e.name
          if (e.isDirectory()) {
            if (!reader.prune(r)) await walk(join(dir, e.name), r, depth + 1)
          } else if (e.isFile()) {
            const rec = reader.recordFile(r)
            if (!rec) continue
            seen++
            const path = join(dir, e.name)
            if (!this.store.source(path)) {
              this.store.register(path, { harness: reader.harness, root: base, session_id: rec.session_id })
              added++
            }
          }
        }
      }
      await walk(base, '', 0)
    }
    return added
  }

  /**
   * Registers the record file a hook named (only when it is one of its harness's, in the
   * harness's own folders for the hook's environment `env`), then reads it. Null when it is not one.
   */
  async record(s: HookedSession, env: FolderEnv): Promise<SourceRow | null> {
    const reader = usageReaderFor(s.harness)
    if (!reader) return null
    const rec = await recordFileIn(reader, s.path, reader.roots(env))
    if (!rec) return null
    const row = this.store.register(rec.path, {
      harness: reader.harness,
      root: rec.root,
      session_id: rec.session_id ?? s.session_id ?? null,
      agent: s.agent,
      project: s.project,
      cwd: s.cwd
    })
    await this.readSource(row)
    return this.store.source(rec.path)
  }

  /** Reads every source whose file changed since its last read. */
  async refresh(): Promise<RefreshResult> {
    const out: RefreshResult = { read: 0, failed: 0, skipped: 0 }
    for (const row of this.store.sources()) {
      const r = await this.readSource(row)
      if (r === 'read') out.read++
      else if (r === 'failed') out.failed++
      await new Promise((res) => setImmediate(res))
    }
    return out
  }

  /**
   * Reads one source from where its last read ended, when its file changed: `read` (committed),
   * `unchanged`, `gone` (no longer one of its harness's record files: never opened, forgotten when
   * its file is missing) or `failed` (the error is stored with it).
   */
  async readSource(row: SourceRow): Promise<'read' | 'unchanged' | 'gone' | 'failed'> {
    const reader = usageReaderFor(row.harness)
    if (!reader) return 'gone'
    const rec = await recordFileIn(reader, row.path, [row.root])
    if (!rec) {
      // a file that is no longer there keeps its tokens (they were spent); one now outside its folder is never read again
      if (!(await lstat(row.path).catch(() => null))) return 'gone'
      this.store.fail(row.id, `not read: ${row.path} is no longer a ${row.harness} record file inside ${row.root}`)
      return 'failed'
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = attempt === 0 ? row : this.store.source(row.path)
      if (!current) return 'gone'
      try {
        const st = await stat(rec.path, { bigint: true })
        const same = `${st.dev}:${st.ino}` === current.file_id
        if (same && Number(st.size) === current.size && Number(st.mtimeMs) === current.mtime_ms) return 'unchanged'
        const read = await readUsageFile(rec.path, reader, UsageStore.from(current), this.limits)
        if (this.store.commit(current, read)) return 'read'
      } catch (err) {
        this.store.fail(row.id, (err as Error).message)
        return 'failed'
      }
    }
    return 'unchanged'
  }
}
