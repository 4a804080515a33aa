/**
 * Whether a path is a folder or lies under it, by its text (both absolute and normalised the same
 * way, real paths where links matter). Runtime-neutral: the caller passes its platform's
 * separator (`sep` of node:path).
 */

/** True when `path` is `root` or lies under it (`/a/bc` is not under `/a/b`). */
export function isInside(path: string, root: string, sep: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}
