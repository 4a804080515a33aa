/**
 * File stamps: "has this file changed since I last looked", in one place. A stamp is what `stat`
 * tells of one version of a file: its identity (device + inode: a file replaced by a rename is
 * another file even with the same size and times), its size, its mtime and its ctime (ctime also
 * moves when a tool writes in place and puts the old mtime back, as `cp -p` or `touch -r` do).
 * Two equal stamps mean the same version, except for a write within the same timestamp tick that
 * keeps the size ("racy git"): whatever is kept under a stamp is kept only once the stamp is
 * RACY_MS old (`stampSettled`).
 *
 * A stamp is a plain tuple: thousands of them are kept in JSON (`muster status`'s snapshot) and in
 * SQLite rows, and compared cold on the hot path, so checks allocate nothing. Runtime-neutral (no
 * `node:fs`): node's `Stats` is a `StatFields`.
 */

/** The fields of a `stat` result a stamp is taken from (node's `Stats` has them). */
export interface StatFields {
  dev: number
  ino: number
  size: number
  mtimeMs: number
  ctimeMs: number
}

/**
 * One version of a file. `ctimeMs` is null when the stamp does not keep it: a file whose ctime moves
 * with nothing written (SQLite running as root `fchown`s its write-ahead log at every open).
 */
export type FileStamp = [dev: number, ino: number, size: number, mtimeMs: number, ctimeMs: number | null]

/** A stamp is trusted only once its times are this old: 2 s covers the coarsest common timestamps (FAT, HFS+ have 1-2 s). */
export const RACY_MS = 2000

/** The stamp of a `stat` result; `ctime: false` leaves the ctime out (see FileStamp). */
export function fileStamp(st: StatFields, opts?: { ctime: boolean }): FileStamp {
  return [st.dev, st.ino, st.size, st.mtimeMs, opts?.ctime === false ? null : st.ctimeMs]
}

/** True when the file `st` (a fresh `stat`; undefined or null: no file) is still the version `s`. */
export function stampHolds(s: FileStamp, st: StatFields | null | undefined): boolean {
  return !!st && st.ino === s[1] && st.size === s[2] && st.mtimeMs === s[3] && (s[4] === null || st.ctimeMs === s[4]) && st.dev === s[0]
}

/** True when `a` and `b` are the same version of a file (null: no file). */
export function sameStamp(a: FileStamp | null, b: FileStamp | null): boolean {
  if (a === null || b === null) return a === b
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4]
}

/** True when `a` and `b` are the same file (device + inode), whatever its content. */
export function sameFile(a: FileStamp, b: FileStamp): boolean {
  return a[0] === b[0] && a[1] === b[1]
}

/** True when the stamp's times are at least RACY_MS before `at` (ms since the epoch): what was read under it may be kept. */
export function stampSettled(s: FileStamp, at: number): boolean {
  return s[3] <= at - RACY_MS && (s[4] === null || s[4] <= at - RACY_MS)
}
