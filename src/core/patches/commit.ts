/**
 * Committing an applied patch: only the paths the patch touched (the worktree's other changes stay
 * as they are), the agent who sent it as the author, the operator's git identity as the committer
 * (the operator's id when git has none configured), and a message made from the patch and its task.
 */
import type { HubEventEnvelope, PatchFile } from '../../shared/api'
import { ApiError } from '../../shared/api-error'
import { git, gitText } from '../git'

/** What a commit needs besides the repository. */
export interface CommitInput {
  repo: string
  files: readonly PatchFile[]
  event: Pick<HubEventEnvelope, 'id' | 'from_agent' | 'body' | 'correlation_id'>
  /** The task's title, when the patch answers one. */
  taskTitle: string | null
  /** The sha256 of the patch's bytes. */
  sha256: string | null
  operator: string
  /** The operator's own message (else one is made). */
  message?: string | null
}

/** The commit message for a patch: its first line without "patch ready:", then the task and the provenance. */
export function commitMessage(i: Pick<CommitInput, 'event' | 'taskTitle' | 'sha256'>): string {
  const first = i.event.body.split('\n').find((l) => l.trim()) ?? ''
  const subject = first.replace(/^\s*patch ready:\s*/i, '').trim() || `Patch from ${i.event.from_agent}`
  const lines = [subject.length > 72 ? `${subject.slice(0, 71)}…` : subject, '']
  if (i.taskTitle) lines.push(`Task: ${i.taskTitle}${i.event.correlation_id ? ` (${i.event.correlation_id})` : ''}`)
  lines.push(`Patch ${i.event.id}${i.sha256 ? ` (sha256 ${i.sha256})` : ''} from ${i.event.from_agent}, applied with Muster.`)
  return lines.join('\n') + '\n'
}

/** Commits the patch's paths; resolves with the new commit and the message. */
export async function commitPatch(i: CommitInput): Promise<{ commit: string; message: string; author: string }> {
  const paths = [...new Set(i.files.flatMap((f) => [f.old_path, f.new_path]).filter((p): p is string => !!p))]
  if (!paths.length) throw new ApiError('the patch names no file to commit', 'invalid_input')
  const changed = (await gitText(i.repo, ['status', '--porcelain=v1', '-z', '--', ...paths])).split('\0').filter(Boolean)
  if (!changed.length) throw new ApiError("nothing to commit: the patch's files have no change (already committed?)", 'conflict')
  await git(i.repo, ['add', '-A', '--', ...paths])
  const message = i.message?.trim() ? `${i.message.trim()}\n` : commitMessage(i)
  const author = `${i.event.from_agent} <${i.event.from_agent}@agents.muster.invalid>`
  const configured = (await git(i.repo, ['config', 'user.email'], { okCodes: [0, 1] })).stdout.trim()
  const env: Record<string, string> = configured
    ? {}
    : { GIT_COMMITTER_NAME: i.operator, GIT_COMMITTER_EMAIL: `${i.operator}@operators.muster.invalid` }
  await git(i.repo, ['commit', '-q', '-F', '-', `--author=${author}`, '--', ...paths], { input: message, env })
  const commit = (await gitText(i.repo, ['rev-parse', 'HEAD'])).trim()
  return { commit, message, author }
}
