/**
 * One lifecycle hook call: read the payload, turn it into a session state, and hand the append to
 * a detached worker (`session-worker.mjs`), so the harness never waits on the hub and its turn
 * never fails: the hook always exits 0 and prints nothing on stdout (Claude Code would add it to
 * the model's context). Why nothing was recorded goes to stderr.
 */
import { readSessionHook, startDetached } from '../../core/approvals'
import type { SessionStateMetadata } from '../../shared/contract/session-state'
import type { SessionHookOptions } from './args'
import { isAgentId } from '../../shared/agent-id'

/** Lifecycle payloads are small; more than this is not one. */
export const MAX_SESSION_INPUT_BYTES = 1024 * 1024

/** What the worker is handed (one JSON argument). */
export interface SessionJob {
  agent: string
  project?: string
  hub?: string
  palace?: string
  home?: string
  cwd: string
  state: SessionStateMetadata
  /** The session's record file the harness named, read for usage by the worker. */
  transcript_path?: string
}

/** The worker's job for this call, or why nothing is recorded. */
export function sessionJob(o: SessionHookOptions, input: string, cwd: string, now = new Date()): { job: SessionJob } | { reason: string } {
  if (!o.agent || !isAgentId(o.agent)) return { reason: '--agent is required (a single token like mac-claude)' }
  if (o.hub && o.palace) return { reason: 'give --hub or --palace, not both' }
  if (Buffer.byteLength(input, 'utf8') > MAX_SESSION_INPUT_BYTES) return { reason: 'the hook input is larger than 1 MiB' }
  const read = readSessionHook(input, { harness: o.harness, event: o.event })
  if (!read.ok) return { reason: read.reason }
  const job: SessionJob = { agent: o.agent, cwd, state: { ...read.state, at: now.toISOString() } }
  if (read.transcript_path) job.transcript_path = read.transcript_path
  for (const k of ['project', 'hub', 'palace', 'home'] as const) if (o[k]) job[k] = o[k]
  return { job }
}

/** Starts the worker detached (its own session, no shared pipes): the hook can exit at once. */
export function startSessionWorker(worker: string, job: SessionJob): void {
  startDetached(worker, JSON.stringify(job), job.cwd)
}

/** Runs the hook; returns the line for stderr when nothing is recorded, else null. */
export function runSessionHook(o: SessionHookOptions, input: string, cwd: string, worker: string): string | null {
  const r = sessionJob(o, input, cwd)
  if ('reason' in r) return `muster session-hook: nothing recorded: ${r.reason}`
  try {
    startSessionWorker(worker, r.job)
    return null
  } catch (err) {
    return `muster session-hook: nothing recorded: ${(err as Error).message}`
  }
}
