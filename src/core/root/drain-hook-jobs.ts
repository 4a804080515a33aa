/**
 * Records the allowlisted calls the hook's fast path left in the spool of a Muster home
 * (`core/approvals/hook-jobs.ts`): each job's rule hit is counted and its request and allowlist
 * decision (with the signed rule) are written to the hub the hook was installed for, exactly as
 * the full hook records them (`recordAllowlisted`). Jobs are claimed first, so concurrent drainers
 * (hooks' workers, `muster serve`, the app, commands) never record one twice. Called by the full
 * hook's detached worker, by the service while it watches, and before the approvals are read.
 */
import { askFor, claimJobs, receiptAppend, recordAllowlisted, releaseJobs, requestRef, takeJob, type HookJob } from '../approvals'
import { basename } from 'node:path'
import type { Db } from '../sqlite'
import { checkHookJob } from './hook-job-check'
import { openHookContext } from './hook'
import type { HookJobDrainer, OpenRoot, Root } from './root-types'

/** The jobs of one hook context: the same (checked) hub, folder and lock timeout. */
function contextKey(job: HookJob, sel: { hub?: string; palace?: string }): string {
  return JSON.stringify([sel.hub ?? null, sel.palace ?? null, job.cwd, job.options.lockTimeoutMs ?? null])
}

/** The root's state DB, or null when the home has none. */
function stateOf(root: Root): Db | null {
  try {
    return root.get('state')
  } catch {
    return null
  }
}

/**
 * Records every job waiting in the spool of `home`, on a root opened with `openRoot` when there is
 * one; the number recorded. What goes wrong is warned (one line each), never thrown: the calls were
 * answered already.
 */
export async function drainHookJobs(home: string, warn: (line: string) => void, openRoot: OpenRoot): Promise<number> {
  const files = claimJobs(home)
  if (!files.length) return 0
  let root: Root | null = null
  const contexts = new Map<string, Awaited<ReturnType<typeof openHookContext>>>()
  let done = 0
  let at = 0
  try {
    for (; at < files.length; at++) {
      const file = files[at]!
      let job: HookJob | null
      try {
        job = takeJob(file)
      } catch (err) {
        warn(`muster: an allowlisted call was not recorded: ${(err as Error).message}`)
        continue
      }
      if (!job) {
        warn(`muster: an allowlisted call was not recorded: ${file} is not a hook job`)
        continue
      }
      const o = job.options
      // the state DB as it is (a hook's record never creates or migrates it)
      root ??= openRoot({ home, env: process.env, state: 'existing' })
      // a job is a file anyone running as the user can write: checked before anything is opened
      const verdict = checkHookJob(job, home, stateOf(root))
      if (!verdict.ok) {
        warn(`muster: refused the hook job ${basename(file).replace(/\.\d+\.claim$/, '')}: ${verdict.why}; nothing was recorded`)
        continue
      }
      const key = contextKey(job, verdict.sel)
      let opened = contexts.get(key)
      if (!opened) {
        opened = await openHookContext(root, {
          palace: verdict.sel.palace,
          hub: verdict.sel.hub,
          env: {},
          cwd: job.cwd,
          lockTimeoutMs: o.lockTimeoutMs,
          warn
        })
        contexts.set(key, opened)
      }
      const { ctx } = opened
      const ask = askFor(job.call, o, ctx)
      const request = await recordAllowlisted(ctx, ask, job.rule)
      // the fast path offers a job only once its answer is out: the allow was delivered
      const hub = ctx.hub
      if (request && !('unreachable' in hub))
        await hub
          .append(
            receiptAppend(requestRef(request), {
              stage: 'delivered',
              hook_event: job.call.event,
              from_agent: ask.agent,
              verdict: 'allow',
              tool_use_id: job.call.tool_use_id
            })
          )
          .catch((err: Error) => warn(`muster: the delivery of ${request.correlation_id} was not recorded: ${err.message}`))
      done++
    }
  } catch (err) {
    // the rest goes back to the spool for the next drain (the job under way is lost, not doubled)
    releaseJobs(files.slice(at + 1))
    warn(`muster: allowlisted calls were not recorded: ${(err as Error).message}`)
  } finally {
    for (const { close } of contexts.values()) await close().catch(() => {})
    await root?.close()
  }
  return done
}

/** A drainer of one home that runs one drain at a time (a call meanwhile waits for the drain under way, then drains again). */
export function hookJobDrainer(home: string, warn: (line: string) => void, openRoot: OpenRoot): HookJobDrainer {
  let running: Promise<void> = Promise.resolve()
  return {
    drain() {
      running = running.then(() =>
        drainHookJobs(home, warn, openRoot).then(
          () => undefined,
          (err: unknown) => warn(`muster: allowlisted calls were not recorded: ${(err as Error).message}`)
        )
      )
      return running
    },
    /** Settles once the drain under way (if any) has ended. */
    idle: () => running
  }
}
