/**
 * Repository questions asked by several parts of the core: where the repository is, whether a
 * commit exists, the latest tag, refs under a prefix, the default branch, what it reaches, and
 * the remotes' fetch refspecs. Each is one git call (or one batch) through `run.ts`.
 */
import { isAbsolute, resolve } from 'node:path'
import { catFileCheck } from './batch'
import { isGitFailure } from './errors'
import { git, gitText } from './run'

/** A repository's work tree and git folders (absolute). */
export interface RepoInfo {
  root: string
  gitDir: string
  /** Where refs and objects live (differs from gitDir in a linked worktree). */
  commonDir: string
}

/** Locates the repository containing `dir`; a GitError (`not-a-repo`, `no-folder`, `missing`) otherwise. */
export async function repoInfo(dir: string): Promise<RepoInfo> {
  const [root, gitDir, common] = (await gitText(dir, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'])).split(
    '\n'
  )
  // --git-common-dir is relative to the folder git ran in (`-C dir`), or absolute
  return { root: root!, gitDir: gitDir!, commonDir: isAbsolute(common!) ? common! : resolve(dir, common!) }
}

/** True when `rev` names a commit in the repository at `dir` (a non-repository is an error, not false). */
export async function commitExists(dir: string, rev: string): Promise<boolean> {
  const [obj] = await catFileCheck(dir, [`${rev}^{commit}`])
  return !!obj
}

/** The latest tag reachable from HEAD (`git describe --tags --abbrev=0`), or null when there is none. */
export async function latestTag(dir: string): Promise<string | null> {
  try {
    return (await gitText(dir, ['describe', '--tags', '--abbrev=0'], { timeoutMs: 5000 })) || null
  } catch (err) {
    if (isGitFailure(err, 'failed')) return null // "No names found": no tags
    throw err
  }
}

/** One ref and the object it points at. */
export interface RefEntry {
  ref: string
  oid: string
}

/** Refs matching `patterns` (for-each-ref semantics: exact, or a prefix up to a slash). */
export async function listRefs(dir: string, patterns: string[]): Promise<RefEntry[]> {
  const out = (await git(dir, ['for-each-ref', '--format=%(objectname) %(refname)', ...patterns])).stdout
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const i = line.indexOf(' ')
      return { oid: line.slice(0, i), ref: line.slice(i + 1) }
    })
}

/**
 * The default branch's ref: the one `origin/HEAD` names (its local branch when it exists),
 * else `main` or `master`, else the branch HEAD is on; null in a repository without commits.
 */
export async function defaultBranch(dir: string): Promise<string | null> {
  const refs = new Set((await listRefs(dir, ['refs/heads', 'refs/remotes'])).map((r) => r.ref))
  try {
    const originHead = await gitText(dir, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'])
    const local = originHead.replace(/^refs\/remotes\/origin\//, 'refs/heads/')
    if (refs.has(local)) return local
    if (refs.has(originHead)) return originHead
  } catch (err) {
    if (!isGitFailure(err, 'failed')) throw err
  }
  for (const name of ['refs/heads/main', 'refs/heads/master']) if (refs.has(name)) return name
  try {
    const head = await gitText(dir, ['symbolic-ref', '--quiet', 'HEAD'])
    return refs.has(head) ? head : null
  } catch (err) {
    if (!isGitFailure(err, 'failed')) throw err
    return null // detached HEAD and no main/master
  }
}

/** Every commit reachable from `rev` (one `rev-list`). */
export async function reachableFrom(dir: string, rev: string): Promise<Set<string>> {
  const out = (await git(dir, ['rev-list', rev, '--'])).stdout
  return new Set(out.split('\n').filter(Boolean))
}

/** The fetch refspecs of each remote (`remote.<name>.fetch`); empty without remotes. */
export async function remoteFetchSpecs(dir: string): Promise<Map<string, string[]>> {
  const remotes = new Map<string, string[]>()
  for (const name of (await git(dir, ['remote'])).stdout.split('\n').filter(Boolean)) remotes.set(name, [])
  const out = (await git(dir, ['config', '--get-regexp', '^remote\\..*\\.fetch$'], { okCodes: [0, 1] })).stdout
  for (const line of out.split('\n').filter(Boolean)) {
    const m = /^remote\.(.+)\.fetch (.*)$/.exec(line)
    if (m) remotes.set(m[1]!, [...(remotes.get(m[1]!) ?? []), m[2]!])
  }
  return remotes
}
