/**
 * Role-file discovery and per-file status (spec/muse-role-files.md sections 1, 2 and 6).
 * A role file is any `*.md` directly inside `.muse/`; `paths.md` is configuration, not a role.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { join, sep } from 'node:path'
import type { L0, RoleStatus, SizeLevel } from '../../shared/api'
import type { RoleDigest } from './parse-role'
import { asyncScanFs, type ScanFs } from './scan-fs'
import { processAlive } from '../process-alive'
import { parseLeftover } from './leftover-names'

/** Files in `.muse/` that are configuration rather than roles. */
export const CONFIG_FILES = new Set(['paths.md'])

/** Line-count thresholds: over 500 directives get buried, over 800 the file must be archived. */
export const LINE_WARNING = 500
export const LINE_ERROR = 800

/** The `.muse` folder of a project. */
export function museDir(projectPath: string): string {
  return join(projectPath, '.muse')
}

/** `join(dir, name)` for a normalised folder and an entry name from `readdir` (no `/`, never `.`/`..`), without join's normalising pass: the fleet scan builds thousands. */
export function entryPath(dir: string, name: string): string {
  return dir + sep + name
}

/** Role name of a role file name (`build.md` -> `build`). */
export function roleName(file: string): string {
  return file.replace(/\.md$/i, '')
}

/**
 * A writer's swap leaves a file missing for microseconds (see `safe-write.ts`): reads that find it
 * missing are retried for up to this long before the file counts as gone.
 */
const SWAP_GAP_MS = 20

/** Runs `fn` again while it fails with ENOENT, for up to `SWAP_GAP_MS`. */
export async function throughSwaps<T>(fn: () => Promise<T>): Promise<T> {
  const until = performance.now() + SWAP_GAP_MS
  for (;;) {
    try {
      return await fn()
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || performance.now() > until) throw err
      await new Promise((r) => setTimeout(r, 1))
    }
  }
}

/**
 * Lists role file names in `.muse/`, sorted; [] when the folder is missing. A link to a file is a
 * role file too (the link policy decides whether Muster may write it). A listing taken while a
 * swap had the file aside (its aside copy is there, the file is not) is taken again.
 */
export async function listRoleFiles(projectPath: string, fs: ScanFs = asyncScanFs): Promise<string[]> {
  return (await readRoleDir(projectPath, fs)) ?? []
}

/** `listRoleFiles`, but null when there is no `.muse/` folder (one call: no separate stat to tell). */
export async function readRoleDir(projectPath: string, fs: ScanFs = asyncScanFs): Promise<string[] | null> {
  return (await readMuseListing(projectPath, fs))?.files ?? null
}

/** What one listing of `.muse/` says, beyond the role files: what lint needs without asking the disk again. */
export interface MuseListing {
  /** Role file names, sorted. */
  files: string[]
  /** Role files that are symbolic links (only these can resolve outside a folder that is not one). */
  links: string[]
  /** `*.md` entries that are links to something other than a file (a folder, nothing): not role files, until their target changes. */
  otherLinks: string[]
  /** Names of Muster's working files (`.x.md.muster-...`) in the folder. */
  workingFiles: string[]
  /** Configuration files present (lower case, like `paths.md`). */
  config: string[]
}

/** Lists `.muse/` once (null when there is none): role files, links, Muster's working files, config files. */
export async function readMuseListing(projectPath: string, fs: ScanFs = asyncScanFs): Promise<MuseListing | null> {
  const dir = museDir(projectPath)
  const until = performance.now() + SWAP_GAP_MS
  let entries
  for (;;) {
    try {
      entries = await fs.readdir(dir)
    } catch (err) {
      return listingError(err)
    }
    if (!midSwap(entries) || performance.now() > until) break
    await new Promise((r) => setTimeout(r, 1))
  }
  const linkedFiles = new Set<string>()
  await Promise.all(
    linkCandidates(entries).map(async (name) => {
      if (
        await fs.stat(entryPath(dir, name)).then(
          (st) => st.isFile(),
          () => false
        )
      )
        linkedFiles.add(name)
    })
  )
  return listingOf(entries, linkedFiles)
}

/**
 * `readMuseListing` with blocking calls and no waiting (a one-shot reader): `undefined` when the
 * listing shows a swap under way (the caller then takes the path that waits it out).
 */
export function readMuseListingNow(projectPath: string): MuseListing | null | undefined {
  const dir = museDir(projectPath)
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (err) {
    return listingError(err)
  }
  if (midSwap(entries)) return undefined
  const linkedFiles = new Set(linkCandidates(entries).filter((name) => statSync(entryPath(dir, name), { throwIfNoEntry: false })?.isFile()))
  return listingOf(entries, linkedFiles)
}

/** The listing of a `.muse` that could not be read: null when there is none, else an empty one. */
function listingError(err: unknown): MuseListing | null {
  const code = (err as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR' ? null : { files: [], links: [], otherLinks: [], workingFiles: [], config: [] }
}

/** True when the entries hold a live swap's aside copy without its file (the listing fell in the swap's gap). */
function midSwap(entries: Dirent[]): boolean {
  let names: Set<string> | null = null
  return entries.some((e) => {
    const l = e.name.startsWith('.') ? parseLeftover(e.name) : null
    if (l?.kind !== 'aside') return false
    names ??= new Set(entries.map((x) => x.name))
    return !names.has(l.file) && processAlive(l.pid)
  })
}

/** A `*.md` entry (a file or a link) that is not a configuration file. */
function isRoleCandidate(e: Dirent): boolean {
  return (e.isFile() || e.isSymbolicLink()) && /\.md$/i.test(e.name) && !CONFIG_FILES.has(e.name.toLowerCase())
}

/** Role candidates that are links: each must be `stat`ed to know whether it points at a file. */
function linkCandidates(entries: Dirent[]): string[] {
  return entries.filter((e) => e.isSymbolicLink() && isRoleCandidate(e)).map((e) => e.name)
}

/** The listing of `entries`, where `linkedFiles` names the links that point at a file. */
function listingOf(entries: Dirent[], linkedFiles: ReadonlySet<string>): MuseListing {
  const files: string[] = []
  const otherLinks: string[] = []
  const config: string[] = []
  const workingFiles: string[] = []
  for (const e of entries) {
    if (isRoleCandidate(e)) {
      if (e.isFile() || linkedFiles.has(e.name)) files.push(e.name)
      else otherLinks.push(e.name)
    } else if ((e.isFile() || e.isSymbolicLink()) && /\.md$/i.test(e.name)) config.push(e.name.toLowerCase())
    if (e.name.startsWith('.') && e.name.includes('.muster-')) workingFiles.push(e.name)
  }
  files.sort()
  return { files, links: files.filter((f) => linkedFiles.has(f)), otherLinks, workingFiles, config }
}

/** Counts lines as `wc -l` does: the number of `\n` characters. */
export function countLines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** The size severity of a line count. */
export function sizeLevel(lines: number): SizeLevel {
  if (lines > LINE_ERROR) return 'error'
  if (lines > LINE_WARNING) return 'warning'
  return 'ok'
}

/** What the overview shows of a role file besides its size and time (derived from its digest; cached apart, see parse-cache.ts). */
export interface RoleCounts {
  l0: L0 | null
  lineCount: number
  pendingDirectives: number
  openTodos: number
  doneTodos: number
}

/** The overview's counts of a digest. */
export function countsOf(d: RoleDigest): RoleCounts {
  return { l0: d.l0, lineCount: d.lineCount, ...pendingAndTodos(d) }
}

/** Status of one role file from its counts (with size and modification time). */
export function roleStatusOf(file: string, r: RoleCounts & { sizeBytes: number; modifiedAt: string }): RoleStatus {
  return {
    role: roleName(file),
    file,
    l0: r.l0,
    lines: r.lineCount,
    sizeBytes: r.sizeBytes,
    sizeLevel: sizeLevel(r.lineCount),
    modifiedAt: r.modifiedAt,
    error: null,
    pendingDirectives: r.pendingDirectives,
    openTodos: r.openTodos,
    doneTodos: r.doneTodos
  }
}

/** Overview counters of a parsed role file: 🟡 directives and notices, open and done TODO items. */
export function pendingAndTodos(parsed: RoleDigest): { pendingDirectives: number; openTodos: number; doneTodos: number } {
  let pending = 0
  for (const d of parsed.directives) if (d.mark === 'pending') pending++
  for (const n of parsed.notices) if (n.mark === 'pending') pending++
  return { pendingDirectives: pending, openTodos: parsed.todos.open, doneTodos: parsed.todos.done }
}

/** The status of a role file that could not be read: `error` says why (a status, not a throw). */
export function unreadableRoleStatus(file: string, err: unknown): RoleStatus {
  const code = (err as NodeJS.ErrnoException).code
  const reason = code === 'EACCES' ? 'permission denied' : code === 'ENOENT' ? 'file vanished' : String(err)
  return {
    role: roleName(file),
    file,
    l0: null,
    lines: 0,
    sizeBytes: 0,
    sizeLevel: 'ok',
    modifiedAt: new Date(0).toISOString(),
    error: `cannot read ${file}: ${reason}`,
    pendingDirectives: 0,
    openTodos: 0,
    doneTodos: 0
  }
}
