/**
 * The swap at the heart of `safeEdit` (design in `safe-write.ts`, step 3): keep a hard link to the
 * version at the path, check it is the version the edit was computed from, and put the new version
 * at the path in one step. The path is never removed, so a reader never finds it missing.
 *
 * Where the system can (`rename-exchange.ts`), that step is an atomic exchange: the replaced
 * version comes back under the source's name, so one that another writer renamed over the path
 * after the check is not destroyed: it is exchanged back to the path (the edit is redone on it).
 * Elsewhere it is one `rename`, right after the final check (two back-to-back system calls, made
 * synchronously): a writer's rename landing between them is replaced and only reported
 * (`safe-write-witness.ts`). It blocks the event loop for the read of one file.
 */
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type BigIntStats
} from 'node:fs'
import { exchangeSync } from './rename-exchange'
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
  /**
   * `rename` when the new version was renamed over the path (a writer's rename in the window would
   * be lost: the witness judges it), `exchange` when exchanged atomically (nothing can be).
   */
  how?: 'rename' | 'exchange'
  /**
   * Versions of other writers that exchanges handed back and that could not go back to the path
   * (two writers renamed in the same instant): kept beside the file under these names.
   */
  displaced?: string[]
  /** With `carry`: the appended bytes written at the end of the source before it went in. */
  carried?: Buffer
}

/** Test hook: runs after the version at the path was captured and compared, before the final check. */
export type WindowHook = (path: string, round: number) => void

/** Captures again at most this many times when the path changes between capture and check. */
const MAX_ROUNDS = 20

/** Options of `swapIn`. */
export interface SwapOptions {
  /** Accept `expect` plus appended bytes at the path (see `swapIn`). */
  appended?: boolean
  /**
   * Write those appended bytes at the end of the source before it goes in (`carried`), instead of
   * returning them as chunks to merge later: a version another writer renamed in (its old read plus
   * its line) is then never replaced by one without its line, not even for a moment in which it
   * could read it back. Not for a source that is another writer's file (a put-back).
   */
  carry?: boolean
  hook?: WindowHook
  afterCheck?: WindowHook
  afterExchange?: WindowHook
}

/**
 * Installs `source` (a name in the same folder, renamed away on success) at `path` if what is
 * there is `expect` (or, with `appended`, `expect` plus appended bytes, which become chunks to
 * merge, or are carried into the source). `expect` null: the path should be missing (creating a
 * file; `link` never replaces). Redoing the edit on appended content keeps the order in which
 * things happened; accepting it guarantees progress against an agent that appends faster than an
 * edit can be redone.
 */
export function swapIn(path: string, source: string, expect: Buffer | null, opts: SwapOptions = {}): SwapOutcome {
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
  const sourceSize = opts.carry ? statSync(source).size : 0
  let grown = false // the source holds bytes an earlier round carried
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
      const extra = bytes.subarray(expect.length)
      let carried: Buffer | undefined
      if (opts.carry && (extra.length || grown)) {
        carried = carryInto(source, sourceSize, extra)
        grown = extra.length > 0
      }
      opts.hook?.(path, round)
      // the check, right before the rename: the path is still this inode, unchanged since read
      const now = lstatSync(path, { bigint: true, throwIfNoEntry: false })
      if (!now || now.ino !== st.ino || now.size !== st.size || now.mtimeNs !== st.mtimeNs) continue
      opts.afterCheck?.(path, round)
      const chunks = extra.length && !carried?.length ? [{ bytes: extra, from: bytes }] : []
      const mine = lstatSync(source, { bigint: true }).ino
      let exchanged: boolean
      try {
        exchanged = exchangeSync(source, path)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return none('vanished') // deleted after the check
        throw err
      }
      if (exchanged) {
        opts.afterExchange?.(path, round)
        const out = settleExchange(path, source, st.ino, mine)
        if (out === 'installed') {
          kept = true
          return { kind: 'installed', aside: [{ name, bytes }], chunks, how: 'exchange', carried }
        }
        return { ...none('stale'), how: 'exchange', displaced: out.displaced }
      }
      renameSync(source, path)
      kept = true
      return { kind: 'installed', aside: [{ name, bytes }], chunks, how: 'rename', carried }
    } finally {
      if (!kept) unlinkSync(name)
    }
  }
  return none('stale')
}

/** Makes `source` its first `size` bytes plus `extra` (a later round carries what it found then). */
function carryInto(source: string, size: number, extra: Buffer): Buffer {
  const fd = openSync(source, 'r+')
  try {
    ftruncateSync(fd, size)
    if (extra.length) writeSync(fd, extra, 0, extra.length, size)
  } finally {
    closeSync(fd)
  }
  return Buffer.from(extra)
}

/** How many exchanges settle a race with writers renaming over the path at the same instant. */
const MAX_EXCHANGES = 4

/**
 * After exchanging the new version (inode `mine`) in: `installed` when the version handed back is
 * the checked one (inode `checked`; still linked as the aside, so its name is let go). Otherwise a
 * writer renamed its version over the path in the window: it is exchanged back, so the path holds
 * the newest version a writer put there, and the edit is redone on it (`stale`). When that hands
 * back a writer's version instead of ours (a second writer replaced ours in that instant), the
 * newer one goes to the path the same way, and the older one it would have replaced is kept beside
 * the file (`displaced`), never deleted; so is anything left when writers keep renaming.
 */
function settleExchange(path: string, source: string, checked: bigint, mine: bigint): 'installed' | { displaced: string[] } {
  let back = lstatSync(source, { bigint: true, throwIfNoEntry: false })
  if (back?.ino === checked) {
    unlinkSync(source)
    return 'installed'
  }
  let placed = mine // what the last exchange put at the path
  let before: bigint | null = null // what the exchange before it put there
  for (let n = 0; back && back.ino !== mine && back.ino !== before && n < MAX_EXCHANGES; n++) {
    const placing = back.ino
    try {
      if (!exchangeSync(source, path)) break
    } catch {
      break // the path went missing meanwhile: what the source holds is kept below
    }
    before = placed
    placed = placing
    back = lstatSync(source, { bigint: true, throwIfNoEntry: false })
  }
  if (!back || back.ino === mine) return { displaced: [] }
  const keep = asideName(path)
  linkSync(source, keep)
  return { displaced: [keep] }
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
