/**
 * Before an apply: which project (the one asked for, else the one whose stream or branch the
 * patch names) and every precondition, checked now: a git repository with commits, a clean
 * worktree unless overridden, HEAD against the patch's branch and base commit, the verification,
 * and that the patch was never applied. `fail` blocks the apply; `warn` is shown.
 */
import type { HubEvent, Precondition, Project, Verification } from '../../shared/api'
import {
  isGitFailure,
  repoInfo,
  commitsBetween,
  hasBranch,
  headInfo,
  isAncestor,
  resolveCommit,
  worktreeStatus,
  type HeadInfo
} from '../git'
import { taskSlug } from '../hub'

/** A registered project and why it matches a patch. */
export interface ProjectMatch {
  name: string
  path: string
  matches: string[]
}

/** The project a stream names (`project/<slug>`), by name slug or key; null when none. */
export function projectOfStream(projects: readonly Project[], stream: string): Project | null {
  const m = /^project\/(.+)$/.exec(stream)
  if (!m) return null
  const slug = m[1]!.toLowerCase()
  return (
    projects.find((p) => taskSlug(p.name) === slug || p.name.toLowerCase() === slug) ??
    projects.find((p) => taskSlug(p.key) === slug) ??
    null
  )
}

/** Every project with what ties it to the patch (stream, branch, base commit), best first. */
export async function rankProjects(projects: readonly Project[], event: HubEvent): Promise<ProjectMatch[]> {
  const byStream = projectOfStream(projects, event.stream)
  const ranked = await Promise.all(
    projects.map(async (p) => {
      const matches: string[] = []
      if (byStream?.name === p.name) matches.push(`stream ${event.stream}`)
      try {
        if (event.branch && (await hasBranch(p.path, event.branch))) matches.push(`branch ${event.branch}`)
        if (event.base_commit && (await resolveCommit(p.path, event.base_commit)))
          matches.push(`base commit ${event.base_commit.slice(0, 12)}`)
      } catch (err) {
        if (!isGitFailure(err)) throw err // not a repository (or no git): it matches on nothing more
      }
      return { name: p.name, path: p.path, matches }
    })
  )
  const score = (m: ProjectMatch): number => m.matches.length + (m.matches.some((x) => x.startsWith('stream')) ? 10 : 0)
  return ranked.sort((a, b) => score(b) - score(a) || a.name.localeCompare(b.name))
}

/** The default project: the best match when it matches and no other matches as well. */
export function defaultProject(ranked: readonly ProjectMatch[]): { project: string | null; reason: string } {
  const [first, second] = ranked
  if (!first || first.matches.length === 0)
    return { project: null, reason: 'no registered project matches the stream, branch or base commit: pick one' }
  if (
    second &&
    second.matches.length === first.matches.length &&
    second.matches.some((m) => m.startsWith('stream')) === first.matches.some((m) => m.startsWith('stream'))
  ) {
    return { project: null, reason: `${first.name} and ${second.name} match equally: pick one` }
  }
  return { project: first.name, reason: `matches ${first.matches.join(', ')}` }
}

/**
 * The default project of a patch, as `defaultProject(await rankProjects(...))` would pick it, without
 * asking git in every project when the stream names one: the stream outweighs any branch and base
 * commit match and no other project can share it, so it is the default whenever it exists.
 */
export async function defaultProjectOf(projects: readonly Project[], event: HubEvent): Promise<{ project: string | null; reason: string }> {
  const byStream = projectOfStream(projects, event.stream)
  if (byStream) return { project: byStream.name, reason: `matches stream ${event.stream}` }
  return defaultProject(await rankProjects(projects, event))
}

/** What preconditions depend on besides the repository. */
export interface PreconditionInput {
  repo: string
  event: HubEvent
  verification: Verification
  allowDirty: boolean
  /** Why the patch counts as applied already (an `applied` ack or run), or null. */
  appliedBy: string | null
  testCommand: string | null
}

/** The preconditions, checked now, and where HEAD is (null when the folder is not a repository). */
export async function checkPreconditions(
  input: PreconditionInput
): Promise<{ list: Precondition[]; head: HeadInfo | null; root: string | null }> {
  const list: Precondition[] = []
  const push = (id: Precondition['id'], level: Precondition['level'], label: string, detail: string): void =>
    void list.push({ id, level, label, detail })
  const v = input.verification
  if (v.verdict === 'refused') push('verified', 'fail', 'Verification refused', v.refused.join('; '))
  else
    push(
      'verified',
      v.verdict === 'ok' ? 'ok' : 'warn',
      v.verdict === 'ok' ? 'Verified' : 'Verified, with warnings',
      `sha256 ${v.sha256.computed?.slice(0, 16)}… matches; ${v.files.length} file${v.files.length === 1 ? '' : 's'}`
    )
  if (input.appliedBy) push('not-applied', 'fail', 'Already applied', input.appliedBy)
  else push('not-applied', 'ok', 'Not applied yet', 'no applied ack and no successful apply by Muster')

  let root: string
  try {
    root = (await repoInfo(input.repo)).root
  } catch (err) {
    if (!isGitFailure(err)) throw err
    push('repository', 'fail', 'Not a git repository', err.message)
    return { list, head: null, root: null }
  }
  push('repository', 'ok', 'Git repository', root)
  const head = await headInfo(root)
  if (!head.commit) push('head', 'fail', 'No commits', 'the repository has no commit to apply onto')
  else push('head', 'ok', 'HEAD', `${head.commit.slice(0, 12)}${head.branch ? ` on ${head.branch}` : ' (detached)'}`)

  const dirty = await worktreeStatus(root)
  if (dirty.length === 0) push('clean', 'ok', 'Clean worktree', 'no changes, no untracked files')
  else {
    const shown = dirty
      .slice(0, 5)
      .map((d) => `${d.xy.trim() || '?'} ${d.path}`)
      .join(', ')
    const detail = `${dirty.length} change${dirty.length === 1 ? '' : 's'}: ${shown}${dirty.length > 5 ? ', …' : ''}`
    push(
      'clean',
      input.allowDirty ? 'warn' : 'fail',
      input.allowDirty ? 'Dirty worktree (allowed)' : 'Dirty worktree',
      input.allowDirty
        ? detail
        : `${detail} (commit them: the Commit button after an apply, or git commit; or stash them; or apply anyway with “Allow uncommitted changes”, --allow-dirty)`
    )
  }

  const e = input.event
  if (!e.branch) push('branch', 'ok', 'Branch', 'the patch names no branch')
  else if (head.branch === e.branch) push('branch', 'ok', 'On the patch branch', e.branch)
  else
    push('branch', 'warn', 'Another branch', `HEAD is ${head.branch ? `on ${head.branch}` : 'detached'}; the patch was made on ${e.branch}`)

  if (!e.base_commit) push('base', 'warn', 'No base commit', 'the patch names no base commit: git apply --check decides')
  else if (head.commit) {
    const base = await resolveCommit(root, e.base_commit)
    if (!base) push('base', 'warn', 'Base commit unknown', `${e.base_commit} is not in this repository (fetch it, or pick another project)`)
    else if (base === head.commit) push('base', 'ok', 'HEAD is the base commit', base.slice(0, 12))
    else if (await isAncestor(root, base, head.commit)) {
      const n = await commitsBetween(root, base, head.commit)
      push(
        'base',
        'warn',
        'HEAD is ahead of the base',
        `${n} commit${n === 1 ? '' : 's'} since ${base.slice(0, 12)}: the patch may still apply`
      )
    } else push('base', 'warn', 'HEAD does not contain the base', `${base.slice(0, 12)} is not an ancestor of HEAD: expect conflicts`)
  }
  if (input.testCommand) push('test', 'ok', 'Tests will run', input.testCommand)
  else push('test', 'warn', 'No test command', 'nothing runs after the apply: set the project’s test command, or give one')
  return { list, head, root }
}
