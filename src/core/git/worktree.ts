/**
 * Working-tree questions and index edits for applying and submitting patches: what is dirty, where
 * HEAD is, whether one commit descends from another, the index entries of some paths (and putting
 * them back), and the working tree's diff against HEAD as `git apply` will read it.
 */
import { isGitFailure } from './errors'
import { git, gitBytes, gitText } from './run'

/** One `git status --porcelain=v1 -z` entry. */
export interface StatusEntry {
  /** The two status letters (`XY`): `??` untracked, ` M` modified in the worktree, `A ` added... */
  xy: string
  path: string
  /** The source path of a rename or copy. */
  from: string | null
}

/** Every change in the worktree and index, untracked files included (ignored ones not). */
export async function worktreeStatus(repo: string): Promise<StatusEntry[]> {
  const out = (await git(repo, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none'])).stdout
  const parts = out.split('\0')
  const entries: StatusEntry[] = []
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!
    if (p.length < 4) continue
    const xy = p.slice(0, 2)
    // renames and copies are followed by their source path as a separate NUL-terminated field
    const from = xy[0] === 'R' || xy[0] === 'C' ? (parts[++i] ?? null) : null
    entries.push({ xy, path: p.slice(3), from })
  }
  return entries
}

/** Where HEAD is: its commit (null before the first commit) and branch (null when detached). */
export interface HeadInfo {
  commit: string | null
  branch: string | null
}

/** The HEAD commit and the branch it is on. */
export async function headInfo(repo: string): Promise<HeadInfo> {
  const commit = (await git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okCodes: [0, 1] })).stdout.trim() || null
  const ref = (await git(repo, ['symbolic-ref', '--quiet', 'HEAD'], { okCodes: [0, 1] })).stdout.trim()
  return { commit, branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null }
}

/** Resolves `rev` to a full commit id, or null when the repository has no such commit. */
export async function resolveCommit(repo: string, rev: string): Promise<string | null> {
  return (
    (await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { okCodes: [0, 1] })).stdout.trim() ||
    null
  )
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(repo, ['merge-base', '--is-ancestor', ancestor, descendant], { okCodes: [0, 1] })).code === 0
}

/** How many commits `to` has that `from` has not (`git rev-list --count from..to`). */
export async function commitsBetween(repo: string, from: string, to: string): Promise<number> {
  return Number(await gitText(repo, ['rev-list', '--count', `${from}..${to}`]))
}

/** True when a local branch of that name exists. */
export async function hasBranch(repo: string, branch: string): Promise<boolean> {
  try {
    return (await git(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [0, 1] })).code === 0
  } catch (err) {
    if (isGitFailure(err, 'failed')) return false // a name git refuses as a ref
    throw err
  }
}

/** The index entries (`<mode> <oid> <stage>\t<path>`) of `paths`, verbatim, for `restoreIndex`. */
export async function indexEntries(repo: string, paths: string[]): Promise<string> {
  if (paths.length === 0) return ''
  return (await git(repo, ['ls-files', '--stage', '-z', '--', ...paths.map(literal)])).stdout
}

/**
 * Puts the index entries of `paths` back to `saved` (from `indexEntries`): paths that had no entry
 * are removed from the index, the others get their saved mode, object and stage.
 */
export async function restoreIndex(repo: string, paths: string[], saved: string): Promise<void> {
  if (paths.length === 0) return
  const records = saved.split('\0').filter(Boolean)
  const kept = new Set(records.map((r) => r.slice(r.indexOf('\t') + 1)))
  const removals = paths.filter((p) => !kept.has(p)).map((p) => `0 ${'0'.repeat(40)}\t${p}`)
  // --index-info takes `<mode> <sha1> <stage>\t<path>` records; mode 0 removes the path
  const input = [...removals, ...records].join('\0') + '\0'
  await git(repo, ['update-index', '-z', '--index-info'], { input })
}

/** A pathspec that matches exactly this path (no globbing, no magic). */
export function literal(path: string): string {
  return `:(literal)${path}`
}

/** Flags that make `git diff` print what `git apply` reads, whatever the user's configuration. */
const DIFF_FLAGS = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--binary',
  '--full-index',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--no-relative'
]
const DIFF_CONFIG = ['diff.noprefix=false', 'diff.mnemonicPrefix=false', 'core.quotePath=true']

/**
 * The working tree's changes against HEAD as one patch, exact bytes: tracked changes (staged or
 * not), then every untracked, non-ignored file as a new file. Nothing in the index or the
 * worktree changes.
 */
export async function worktreeDiff(repo: string): Promise<Buffer> {
  const { commit } = await headInfo(repo)
  const base = commit ?? (await emptyTree(repo))
  const tracked = (await gitBytes(repo, ['diff', ...DIFF_FLAGS, base, '--'], { config: DIFF_CONFIG })).stdout
  const untracked = (await git(repo, ['ls-files', '-z', '--others', '--exclude-standard'])).stdout.split('\0').filter(Boolean)
  const parts = [tracked]
  for (const path of untracked) {
    // --no-index answers 1 when the files differ, which they always do here
    parts.push(
      (await gitBytes(repo, ['diff', '--no-index', ...DIFF_FLAGS, '--', '/dev/null', path], { config: DIFF_CONFIG, okCodes: [0, 1] }))
        .stdout
    )
  }
  return Buffer.concat(parts)
}

/** The empty tree's id in this repository's hash (sha1 or sha256). */
async function emptyTree(repo: string): Promise<string> {
  return gitText(repo, ['hash-object', '-t', 'tree', '--stdin'], { input: '' })
}
