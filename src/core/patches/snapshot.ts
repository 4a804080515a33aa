/**
 * Before an apply, Muster keeps the exact bytes, mode and link target of every path the patch
 * touches (or that it is absent, and which folders above it are absent too). After failing tests a
 * revert puts exactly that back, but only when the files are still as the apply left them: an
 * edit made since then (by the operator, an agent or the tests) is never overwritten.
 */
import { createHash } from 'node:crypto'
import { promises as fs, type Stats } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { makeDir } from '../make-dir'
import type { SnapshotFile } from './patch-store'

/** The absolute path of `rel` inside `root`; throws when it would leave it. */
function inside(root: string, rel: string): string {
  const abs = resolve(root, rel)
  if (!abs.startsWith(resolve(root) + sep)) throw new Error(`${JSON.stringify(rel)} is outside ${root}`)
  return abs
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await fs.lstat(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null
    throw err
  }
}

/** The topmost absent folder above an absent `rel`, or null when its parent exists. */
async function firstAbsentDir(root: string, rel: string): Promise<string | null> {
  let top: string | null = null
  for (let dir = dirname(rel); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    if (await lstatOrNull(inside(root, dir))) break
    top = dir
  }
  return top
}

/** The state of `paths` now (before an apply). Folders are refused: a patch changes files. */
export async function takeSnapshot(root: string, paths: string[]): Promise<SnapshotFile[]> {
  const out: SnapshotFile[] = []
  for (const path of [...new Set(paths)].sort()) {
    const abs = inside(root, path)
    const st = await lstatOrNull(abs)
    if (!st) {
      out.push({
        path,
        existed: false,
        mode: null,
        link: null,
        content: null,
        afterSha: null,
        createdDir: await firstAbsentDir(root, path)
      })
    } else if (st.isSymbolicLink()) {
      out.push({ path, existed: true, mode: null, link: await fs.readlink(abs), content: null, afterSha: null, createdDir: null })
    } else if (st.isFile()) {
      out.push({
        path,
        existed: true,
        mode: st.mode & 0o7777,
        link: null,
        content: await fs.readFile(abs),
        afterSha: null,
        createdDir: null
      })
    } else {
      throw new Error(`${path} is a folder in the worktree, but the patch changes it as a file`)
    }
  }
  return out
}

/** A short fingerprint of a path's state: sha256 of its bytes, of `link:<target>`, or null when absent. */
export async function fingerprint(root: string, path: string): Promise<string | null> {
  const abs = inside(root, path)
  const st = await lstatOrNull(abs)
  if (!st) return null
  const hash = createHash('sha256')
  if (st.isSymbolicLink()) hash.update(`link:${await fs.readlink(abs)}`)
  else if (st.isFile()) hash.update(await fs.readFile(abs)).update(`:${st.mode & 0o111 ? 'x' : '-'}`)
  else hash.update('folder')
  return hash.digest('hex')
}

/** The snapshot with each path's post-apply fingerprint filled in. */
export async function markApplied(root: string, files: SnapshotFile[]): Promise<SnapshotFile[]> {
  return Promise.all(files.map(async (f) => ({ ...f, afterSha: await fingerprint(root, f.path) })))
}

/** Paths whose state differs from what the apply left (a revert would overwrite someone's change). */
export async function changedSinceApply(root: string, files: SnapshotFile[]): Promise<string[]> {
  const changed: string[] = []
  for (const f of files) if ((await fingerprint(root, f.path)) !== f.afterSha) changed.push(f.path)
  return changed
}

/** Puts every path back as the snapshot holds it; returns the paths written or removed. */
export async function restoreSnapshot(root: string, files: SnapshotFile[]): Promise<string[]> {
  const restored: string[] = []
  for (const f of files) {
    const abs = inside(root, f.path)
    const now = await lstatOrNull(abs)
    if (!f.existed) {
      if (now) await fs.rm(abs, { force: true })
      if (f.createdDir) await removeEmptyUpTo(root, dirname(f.path), f.createdDir)
    } else {
      await makeDir(dirname(abs))
      if (now && (now.isSymbolicLink() || f.link !== null)) await fs.rm(abs, { force: true })
      if (f.link !== null) await fs.symlink(f.link, abs)
      else {
        await fs.writeFile(abs, f.content ?? Buffer.alloc(0))
        if (f.mode !== null) await fs.chmod(abs, f.mode)
      }
    }
    restored.push(f.path)
  }
  return restored
}

/** Removes `from` and its parents up to and including `top` while they are empty folders. */
async function removeEmptyUpTo(root: string, from: string, top: string): Promise<void> {
  for (let dir = from; ; dir = dirname(dir)) {
    const abs = inside(root, dir)
    const st = await lstatOrNull(abs)
    if (st?.isDirectory() && (await fs.readdir(abs)).length === 0) await fs.rmdir(abs)
    else if (st) return
    if (dir === top || relative(top, dir).startsWith('..') || dir === '.') return
  }
}
