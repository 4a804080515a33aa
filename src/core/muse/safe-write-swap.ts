/**
 * The swap at the heart of `safeEdit` (design in `safe-write.ts`, step 3): keep a hard link to the
 * version at the path, check it is the version the edit was computed from, and replace it with one
 * `rename` of the new version over the path. The path is never removed, so a reader never finds it
 * missing. It runs synchronously on purpose: the final check and the rename are back-to-back
 * system calls, the smallest window the file system allows without an atomic exchange
 * (`renameat2(RENAME_EXCHANGE)`, which Node lacks). It blocks the event loop for the read of one
 * file.
 */
import { closeSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, type BigIntStats } from 'node:fs'
import { asideName } from './write-leftovers'

/** A version of the file that a swap replaced, still reachable through a hard link beside it. */
export interface Captured {
  /** Its name now (an aside name in the same folder, a hard link to the replaced inode). */
  name: string
  /** Its bytes when it was replaced. */
  bytes: Buffer
}

/** What a swap did. */
export interface SwapOutcome {
  /**
   * `installed`: the source is at the path. `stale`: the path holds something the source was not
   * computed from (a rewrite, or a file created meanwhile); nothing changed. `vanished`: the path
   * is missing (deleted); nothing changed.
   */
  kind: 'installed' | 'stale' | 'vanished'
  /** The version the source replaced: watched for late in-place writes, merged, then deleted. */
  aside: Captured[]
  /** Bytes found in the replaced version that are not in the version the source was computed from. */
  chunks: { bytes: Buffer; from: Buffer }[]
}

/** Test hook: runs after the version at the path was captured and compared, before the final check. */
export type WindowHook = (path: string, round: number) => void

/** Captures again at most this many times when the path changes between capture and check. */
const MAX_ROUNDS = 20

/**
 * Installs `source` (a name in the same folder, renamed away on success) at `path` if what is
 * there is `expect` (or, with `appended`, `expect` plus appended bytes, which become chunks to
 * merge). `expect` null: the path should be missing (creating a file; `link` never replaces).
 * Redoing the edit on appended content keeps the order in which things happened; accepting it
 * guarantees progress against an agent that appends faster than an edit can be redone.
 */
export function swapIn(
  path: string,
  source: string,
  expect: Buffer | null,
  opts: { appended?: boolean; hook?: WindowHook; afterCheck?: WindowHook } = {}
): SwapOutcome {
  const none = (kind: SwapOutcome['kind']): SwapOutcome => ({ kind, aside: [], chunks: [] })
  if (expect === null) {
    try {
      linkSync(source, path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return none('stale')
      throw err
    }
    unlinkSync(source)
    return none('installed')
  }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const name = asideName(path)
    try {
      linkSync(path, name) // this inode stays reachable whatever replaces it at the path
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return none('vanished')
      throw err
    }
    let kept = false
    try {
      const read = readWhole(name)
      if (!read) continue // written while read: capture again
      const { bytes, st } = read
      if (!(bytes.equals(expect) || (opts.appended && startsWith(bytes, expect)))) return none('stale')
      opts.hook?.(path, round)
      // the check, right before the rename: the path is still this inode, unchanged since read
      const now = lstatSync(path, { bigint: true, throwIfNoEntry: false })
      if (!now || now.ino !== st.ino || now.size !== st.size || now.mtimeNs !== st.mtimeNs) continue
      opts.afterCheck?.(path, round)
      renameSync(source, path)
      kept = true
      const chunks = bytes.length > expect.length ? [{ bytes: bytes.subarray(expect.length), from: bytes }] : []
      return { kind: 'installed', aside: [{ name, bytes }], chunks }
    } finally {
      if (!kept) unlinkSync(name)
    }
  }
  return none('stale')
}

/** The bytes of a file and its state, or null when it changed while read. */
function readWhole(name: string): { bytes: Buffer; st: BigIntStats } | null {
  const fd = openSync(name, 'r')
  try {
    const before = fstatSync(fd, { bigint: true })
    const bytes = readFileSync(fd)
    const st = fstatSync(fd, { bigint: true })
    const same = before.size === st.size && before.mtimeNs === st.mtimeNs && BigInt(bytes.length) === st.size
    return same ? { bytes, st } : null
  } finally {
    closeSync(fd)
  }
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
