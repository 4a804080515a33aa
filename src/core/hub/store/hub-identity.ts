/**
 * The hub file is the hub: which file a `HubConnection` holds open, and whether the path still
 * names it. A hub deleted, replaced (by rename or copied over in place), truncated or corrupted
 * under a running process is noticed here, before each write and on every read (the poll of a
 * tail is a read): a replaced file is reopened, a deleted, emptied or damaged one refuses writes
 * with a clear reason, and an append whose file stopped being the hub while it ran is not
 * acknowledged. The old file's `-wal` and `-shm`, while they are still the ones the connections
 * opened, are moved out of the way (the `-wal` kept beside as `-wal.retired-<time>`, the index
 * removed): SQLite would otherwise read the old file's frames as the new file's. Connections on a
 * file that is no longer the hub are never closed (closing the last one checkpoints and deletes the
 * `-wal` by path, which may be the new file's by then): they are kept for the rest of the process.
 */
import { fstatSync, openSync, readSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs'
import type { Db } from '../../sqlite'

/** SQLite's 16-byte file header. */
const SQLITE_MAGIC = 'SQLite format 3\u0000'

/** What the path holds now: its identity (device + inode) and size, or null when there is no file. */
export interface FileIdentity {
  id: string
  size: number
  mtimeMs: number
}

/** The identity of the file at `path`, or null when there is none. */
export function identityOf(path: string): FileIdentity | null {
  let st: Stats
  try {
    st = statSync(path)
  } catch {
    return null
  }
  return { id: `${st.dev}:${st.ino}`, size: st.size, mtimeMs: st.mtimeMs }
}

/**
 * Descriptors the header is read through, one per file (device + inode), never closed: POSIX drops
 * every lock this process holds on a file when it closes any descriptor of it. Closing one here
 * dropped the shared lock of the open SQLite connections, so another process closing its
 * connection took itself for the last one and deleted `-wal` and `-shm` under this process, which
 * then read the deleted ones and never saw another commit.
 */
const headerFds = new Map<string, number>()

/** A descriptor of the file at `path` that stays open, or null when there is no file. */
function headerFd(path: string, mode: 'r' | 'r+' = 'r'): number | null {
  const now = identityOf(path)
  if (!now) return null
  const known = headerFds.get(now.id)
  if (known !== undefined) return known
  let fd: number
  try {
    fd = openSync(path, mode)
  } catch {
    return null
  }
  const st = fstatSync(fd)
  headerFds.set(`${st.dev}:${st.ino}`, fd) // the file opened (the path may name another by now)
  return fd
}

/** True when the file starts with SQLite's header (a file too short to hold one has none). */
export function hasSqliteHeader(path: string): boolean {
  const fd = headerFd(path)
  if (fd === null) return false
  const buf = Buffer.alloc(16)
  try {
    return readSync(fd, buf, 0, 16, 0) === 16 && buf.toString('latin1') === SQLITE_MAGIC
  } catch {
    return false
  }
}

/** Connections on files that stopped being the hub: held so they are never closed (or collected). */
const retired: Db[] = []

/** Keeps a connection whose file is no longer the hub open (and referenced) for the rest of the process. */
export function retire(db: Db | null | undefined): void {
  if (db) retired.push(db)
}

/** Bytes of the WAL index header in `-shm` (two copies of the 48-byte header and the checkpoint info). */
const WAL_INDEX_HEADER = 136

/**
 * Moves the old file's `-wal` aside when the `-wal` at the path is still `walId` (the one the
 * retired connections opened), so a new file at the path starts clean, and deals with its `-shm`:
 * - another file at the path (replaced, or deleted and restored): the `-shm` is removed.
 * - the same file rewritten in place (truncated, copied over): the `-shm` stays and its WAL index
 *   header is zeroed. SQLite shares one index per file within a process, so connections opened now
 *   join the retired ones' mapping of it: were it removed, they would keep using the deleted one,
 *   stale and no longer shared with other processes. Zeroed, it makes every connection rebuild
 *   the index from the `-wal` that is at the path now.
 * The `-shm` is written through a descriptor that stays open (see `headerFds`).
 */
export function setAsideWal(file: string, walId: string | null, sameFile = false): void {
  const wal = `${file}-wal`
  const ours = walId !== null && identityOf(wal)?.id === walId
  try {
    if (ours) renameSync(wal, `${wal}.retired-${Date.now()}`)
  } catch {
    // gone already, or a folder we cannot change
  }
  if (!sameFile) {
    if (ours) rmSync(`${file}-shm`, { force: true })
    return
  }
  const fd = headerFd(`${file}-shm`, 'r+')
  if (fd === null) return
  try {
    if (fstatSync(fd).size >= WAL_INDEX_HEADER) writeSync(fd, Buffer.alloc(WAL_INDEX_HEADER), 0, WAL_INDEX_HEADER, 0)
  } catch {
    // a -shm we cannot write: SQLite will say what it finds
  }
}

/** How many connections were retired (for tests). */
export function retiredCount(): number {
  return retired.length
}
