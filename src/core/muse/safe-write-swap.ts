/**
 * The swap at the heart of `safeEdit` (design in `safe-write.ts`): move whatever is at the path
 * aside with one `rename`, look at what was moved, and `link` the new version into the empty path.
 * It runs synchronously on purpose: the path is missing between the two calls, and doing them
 * back to back keeps that gap at syscall scale instead of two thread-pool round trips (which wait
 * behind any other file work of the process). It blocks the event loop for the read of one file.
 */
import { linkSync, readFileSync, renameSync, unlinkSync } from 'node:fs'
import { asideName } from './write-leftovers'

/** A version of the file that a swap moved off the path. */
export interface Captured {
  /** Its name now (an aside name in the same folder). */
  name: string
  /** Its bytes when it was moved. */
  bytes: Buffer
  /** Created while the path was missing (by an agent opening with O_CREAT, or renaming in). */
  fresh: boolean
}

/** What a swap did. */
export interface SwapOutcome {
  /**
   * `installed`: the source is at the path. `restored`: a captured version was a rewrite the source
   * was not computed from, so it went back to the path instead. `vanished`: the path was missing
   * (deleted, or between another writer's two steps); nothing was linked.
   */
  kind: 'installed' | 'restored' | 'vanished'
  /** Versions now off the path: watched for late writes, merged, then deleted. */
  aside: Captured[]
  /** Bytes found in captured versions that are not in the version the source was computed from. */
  chunks: { bytes: Buffer; from: Buffer }[]
}

/** Test hook: runs while the path is missing, before each link attempt. */
export type WindowHook = (path: string, round: number) => void

/** Gives up creating rounds after this many (each needs an agent to create the path in microseconds). */
const MAX_ROUNDS = 100

/**
 * Installs `source` (a name in the same folder) at `path` if what is there is `expect` (or, with
 * `appended`, `expect` plus appended bytes, which become chunks to merge); otherwise puts what was
 * there back. `expect` null: the path should be missing (creating a file). Redoing the edit on
 * appended content keeps the order in which things happened; accepting it guarantees progress
 * against an agent that appends faster than an edit can be redone.
 */
export function swapIn(
  path: string,
  source: string,
  expect: Buffer | null,
  opts: { appended?: boolean; hook?: WindowHook } = {}
): SwapOutcome {
  const aside: Captured[] = []
  const chunks: SwapOutcome['chunks'] = []
  let src: Captured | null = null // a captured rewrite to put back instead of `source`
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const name = asideName(path)
    let moved = true
    try {
      renameSync(path, name)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      moved = false
    }
    if (!moved && round === 0 && expect !== null) return { kind: 'vanished', aside, chunks }
    if (moved) {
      const c: Captured = { name, bytes: readFileSync(name), fresh: round > 0 || expect === null }
      const ref = src ? src.bytes : expect
      if (!c.fresh && ref && (c.bytes.equals(ref) || (opts.appended && startsWith(c.bytes, ref)))) {
        aside.push(c)
        if (c.bytes.length > ref.length) chunks.push({ bytes: c.bytes.subarray(ref.length), from: c.bytes })
      } else if (!c.fresh || ref === null || (c.bytes.length > 0 && looksWhole(c.bytes, ref))) {
        // a rewrite (or a whole file where none was): the newest one goes back to the path
        if (src) aside.push(src)
        src = c
      } else {
        // bytes an appending agent wrote into a file it created in the gap (or an empty newcomer)
        aside.push(c)
        if (c.bytes.length) chunks.push({ bytes: c.bytes, from: c.bytes })
      }
    }
    opts.hook?.(path, round)
    try {
      linkSync(src ? src.name : source, path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw err
    }
    if (src) unlinkSync(src.name)
    return { kind: src ? 'restored' : 'installed', aside, chunks }
  }
  // an agent recreated the path 100 times in a row: leave its file there, keep ours aside
  if (src) aside.push(src)
  return { kind: 'restored', aside, chunks }
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
