/**
 * The swap at the heart of `safeEdit` (design in `safe-write.ts`): capture whatever is at the path
 * with one `link` to an aside name, look at what was captured, and, when it is the version the
 * new one was computed from, `rename` the new version over the path. The path is never missing:
 * a reader sees the old version or the new one, never ENOENT (rename-over, not unlink-then-create).
 * It runs synchronously on purpose: the calls run back to back, which keeps the one window that
 * remains (an agent renaming its own file over the path between Muster's last check and its
 * rename, whose file the rename then replaces) at syscall scale. It blocks the event loop for the
 * read of one file.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs'
import { asideName } from './write-leftovers'

/** A version of the file that a swap took off the path. */
export interface Captured {
  /** Its name now (an aside name in the same folder). */
  name: string
  /** Its bytes when it was captured. */
  bytes: Buffer
  /** Created while the path was missing (only by other writers' gaps now: Muster leaves none). */
  fresh: boolean
}

/** What a swap did. */
export interface SwapOutcome {
  /**
   * `installed`: the source is at the path. `changed`: the path holds a version the source was not
   * computed from (rewritten, or created by another writer), left as it is: redo the edit on it.
   * `vanished`: the path was missing (deleted); nothing was written.
   */
  kind: 'installed' | 'changed' | 'vanished'
  /** Versions now off the path: watched for late writes, merged, then deleted. */
  aside: Captured[]
  /** Bytes found in captured versions that are not in the version the source was computed from. */
  chunks: { bytes: Buffer; from: Buffer }[]
  /** The inode of the installed version (when installed). */
  ino?: bigint
}

/** Test hook: runs between the capture and the rename. */
export type WindowHook = (path: string, round: number) => void

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code

/**
 * Installs `source` (a name in the same folder) at `path` if what is there is `expect` (or, with
 * `appended`, `expect` plus appended bytes, which become chunks to merge); otherwise leaves the
 * path alone. `expect` null: the path should be missing (creating a file; `link` never replaces).
 * Redoing the edit on appended content keeps the order in which things happened; accepting it
 * guarantees progress against an agent that appends faster than an edit can be redone.
 */
export function swapIn(
  path: string,
  source: string,
  expect: Buffer | null,
  opts: { appended?: boolean; hook?: WindowHook } = {}
): SwapOutcome {
  const none = { aside: [], chunks: [] }
  if (expect === null) {
    opts.hook?.(path, 0)
    try {
      linkSync(source, path)
    } catch (err) {
      if (code(err) === 'EEXIST') return { kind: 'changed', ...none }
      throw err
    }
    return { kind: 'installed', ...none, ino: statSync(source, { bigint: true }).ino }
  }
  const name = asideName(path)
  try {
    linkSync(path, name)
  } catch (err) {
    if (code(err) === 'ENOENT') return { kind: 'vanished', ...none }
    throw err
  }
  const bytes = readFileSync(name)
  if (!(bytes.equals(expect) || (opts.appended && startsWith(bytes, expect)))) {
    unlinkSync(name) // a second name of the live file: the file itself stays
    return { kind: 'changed', ...none }
  }
  opts.hook?.(path, 0)
  const mine = statSync(name)
  const ino = statSync(source, { bigint: true }).ino
  // the path must still name the captured file when the new version replaces it: checked by the
  // call right before the rename, so the window left is one system call wide
  const at = statSync(path, { throwIfNoEntry: false })
  if (!at || at.ino !== mine.ino || at.dev !== mine.dev) {
    unlinkSync(name)
    return { kind: at ? 'changed' : 'vanished', ...none }
  }
  renameSync(source, path)
  const chunks = bytes.length > expect.length ? [{ bytes: bytes.subarray(expect.length), from: bytes }] : []
  return { kind: 'installed', aside: [{ name, bytes, fresh: false }], chunks, ino }
}

/** Occurrences of `needle` in `hay` (non-overlapping). */
export function count(hay: Buffer, needle: Buffer): number {
  if (needle.length === 0) return 0
  let n = 0
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) n++
  return n
}

/** True when `buf` begins with all of `prefix`. */
export function startsWith(buf: Buffer, prefix: Buffer): boolean {
  return buf.length >= prefix.length && buf.subarray(0, prefix.length).equals(prefix)
}

/**
 * Whether bytes that appeared in a file created during the gap are a whole version of the file
 * (an agent's rewrite) rather than lines an appending agent wrote into a new file. A whole version
 * begins with the file's first line (the L0 line of a role file, `# <date>` of a memory log) or
 * shares at least half of its distinct non-blank lines; appended lines do neither.
 */
export function looksWhole(bytes: Buffer, ref: Buffer): boolean {
  if (ref.length === 0) return true
  const nl = ref.indexOf(0x0a)
  const first = nl < 0 ? ref : ref.subarray(0, nl + 1)
  if (startsWith(bytes, first)) return true
  const theirs = new Set(bytes.toString('utf8').split('\n'))
  const ours = new Set(
    ref
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
  )
  let shared = 0
  for (const l of ours) if (theirs.has(l)) shared++
  return ours.size > 0 && shared * 2 >= ours.size
}
