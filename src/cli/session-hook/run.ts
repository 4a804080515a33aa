/**
 * One lifecycle hook call: read the payload, turn it into a session state, and hand the append to
 * a detached worker (`session-worker.mjs`), so the harness never waits on the hub and its turn
 * never fails: the hook always exits 0 and prints nothing on stdout (Claude Code would add it to
 * the model's context). Why nothing was recorded goes to stderr.
 * A receipt event (PostToolUse, ..., installed with `--receipts`) runs on every tool call: it
 * looks for the session's marker folder in Muster's home and, finding none, ends at once (no hub,
 * no worker, nothing said); finding the call's marker, it claims it and the worker records it.
 */
import { readSessionHook, sessionHasMarkers, startDetached, takeMarker } from '../../core/approvals'
import { defaultCliHome, resolveHome } from '../../core/fleet'
import type { ReceiptOutcome } from '../../shared/contract/hub-vocabulary'
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
  /** The session state to record (absent for a call's receipt). */
  state?: SessionStateMetadata
  /** The session's record file the harness named, read for usage by the worker. */
  transcript_path?: string
  /** The session ended or was interrupted: the markers it left are recorded as this (`settleSessionEnd`). */
  end?: 'withdrawn' | 'denied'
  /** One call's receipt: the marker this hook claimed, and what the harness said of the call. */
  receipt?: { claim: string; harness: string; hook_event: string; outcome: ReceiptOutcome }
}

/** A receipt event with no marker waiting for it: nothing to do, and nothing to say. */
const NOTHING = { skip: true } as const

/** The worker's job for this call, or why nothing is recorded. */
export function sessionJob(
  o: SessionHookOptions,
  input: string,
  cwd: string,
  now = new Date(),
  env: NodeJS.ProcessEnv = process.env
): { job: SessionJob } | { reason: string } | typeof NOTHING {
  if (!o.agent || !isAgentId(o.agent)) return { reason: '--agent is required (a single token like mac-claude)' }
  if (o.hub && o.palace) return { reason: 'give --hub or --palace, not both' }
  if (Buffer.byteLength(input, 'utf8') > MAX_SESSION_INPUT_BYTES) return { reason: 'the hook input is larger than 1 MiB' }
  const read = readSessionHook(input, { harness: o.harness, event: o.event })
  if (!read.ok) return { reason: read.reason }
  if (read.state === null) {
    // a call's receipt: nothing waits for it unless the session has markers (no hub, no worker)
    const r = read.receipt
    const home = resolveHome(o.home, env, defaultCliHome())
    if (!sessionHasMarkers(home, r.harness, r.session_id)) return NOTHING
    const taken = takeMarker(home, r.harness, r.session_id, r.call)
    if (!taken) return NOTHING
    const job: SessionJob = {
      agent: o.agent,
      cwd,
      home,
      receipt: { claim: taken.claim, harness: r.harness, hook_event: r.hook_event, outcome: r.outcome }
    }
    for (const k of ['project', 'hub', 'palace'] as const) if (o[k]) job[k] = o[k]
    return { job }
  }
  const job: SessionJob = { agent: o.agent, cwd, state: { ...read.state, at: now.toISOString() } }
  if (read.transcript_path) job.transcript_path = read.transcript_path
  if (read.end) job.end = read.end
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
  if ('skip' in r) return null
  if ('reason' in r) return `muster session-hook: nothing recorded: ${r.reason}`
  try {
    startSessionWorker(worker, r.job)
    return null
  } catch (err) {
    return `muster session-hook: nothing recorded: ${(err as Error).message}`
  }
}
