/**
 * Sending a patch to an agent (operator → agent), as `mempalace_patch_submit` does: the patch text
 * (a file's bytes, or a project's working-tree diff against HEAD) stored byte-exactly as a
 * `kind=patch` artifact and announced by a `patch.ready` event, with upstream's warnings reported.
 * A working-tree diff that is not valid UTF-8 or holds NUL bytes cannot be a hub artifact (TEXT,
 * no NUL) and is refused before anything is written.
 */
import { ApiError } from '../../shared/api-error'
import type { HubEvent, PatchFile, Project } from '../../shared/api'
import { repoInfo, headInfo, worktreeDiff } from '../git'
import { type HubSelection, type HubService, patchWarnings, sha256Hex, taskSlug } from '../hub'
import { parsePatch } from './diff-files'

/** A project's working-tree diff and what Muster can say about it. */
export interface WorktreeDiff {
  project: string
  repo: string
  head: string | null
  branch: string | null
  content: string
  size_bytes: number
  files: PatchFile[]
  warnings: string[]
  /** Why it cannot be submitted (empty, binary bytes, NUL), or null. */
  problem: string | null
}

/** Decodes bytes as UTF-8 only when they round-trip exactly; null otherwise. */
export function exactUtf8(bytes: Buffer): string | null {
  const text = bytes.toString('utf8')
  return Buffer.from(text, 'utf8').equals(bytes) ? text : null
}

/** The working-tree diff of `project` against HEAD (untracked files included). */
export async function projectDiff(project: Project): Promise<WorktreeDiff> {
  const { root } = await repoInfo(project.path)
  const head = await headInfo(root)
  const bytes = await worktreeDiff(root)
  const text = exactUtf8(bytes)
  const problem =
    bytes.length === 0
      ? `the worktree of ${project.name} has no changes against HEAD`
      : text === null
        ? 'the diff is not valid UTF-8 (a hub artifact is text): commit or drop the binary change'
        : text.includes('\0')
          ? 'the diff holds NUL bytes, which a hub artifact cannot store'
          : null
  const content = text ?? bytes.toString('utf8')
  return {
    project: project.name,
    repo: root,
    head: head.commit,
    branch: head.branch,
    content,
    size_bytes: bytes.length,
    files: parsePatch(content).files,
    warnings: patchWarnings('patch', content),
    problem
  }
}

/** What `submit` takes (the contract's `patch.submit` plus who sends it). */
export interface SubmitInput {
  project?: string
  from_worktree?: boolean
  content?: string
  to_agent: string
  from_agent: string
  correlation_id?: string
  stream?: string
  topic?: string
  branch?: string
  base_commit?: string
  body?: string
}

/** The default body: what the patch changes and its sha256 (so the receiver can check it). */
function defaultBody(from: string, files: PatchFile[], sha: string): string {
  const adds = files.reduce((n, f) => n + f.additions, 0)
  const dels = files.reduce((n, f) => n + f.deletions, 0)
  return `patch from ${from}: ${files.length} file${files.length === 1 ? '' : 's'}, +${adds} −${dels}\nsha256: ${sha}`
}

/** Submits a patch through the hub service; returns the artifact record (with warnings) and the event. */
export async function submitPatch(hubs: HubService, sel: HubSelection, project: Project | null, input: SubmitInput) {
  let content: string
  let branch = input.branch
  let base = input.base_commit
  if (input.from_worktree) {
    if (!project) throw new ApiError('from_worktree needs a project', 'invalid_input')
    if (input.content !== undefined) throw new ApiError('pass the patch text or from_worktree, not both', 'invalid_input')
    const diff = await projectDiff(project)
    if (diff.problem) throw new ApiError(diff.problem, 'invalid_input')
    content = diff.content
    branch ??= diff.branch ?? undefined
    base ??= diff.head ?? undefined
  } else {
    if (input.content === undefined || input.content === '')
      throw new ApiError('the patch is empty: pass its text, or from_worktree with a project', 'invalid_input')
    content = input.content
  }
  const stream = input.stream ?? (project ? `project/${taskSlug(project.name)}` : null)
  if (!stream) throw new ApiError('pass a stream (project/<slug>) or a project', 'invalid_input')
  const sha = sha256Hex(content)
  const done = await hubs.submitPatch({
    ...sel,
    content,
    from_agent: input.from_agent,
    stream,
    to_agent: input.to_agent,
    correlation_id: input.correlation_id ?? null,
    topic: input.topic ?? null,
    branch: branch ?? null,
    base_commit: base ?? null,
    body: input.body ?? defaultBody(input.from_agent, parsePatch(content).files, sha)
  })
  return {
    hub: done.hub,
    palace: done.palace,
    artifact: { ...done.artifact, warnings: done.artifact.warnings ?? [] },
    event: done.event as HubEvent
  }
}
