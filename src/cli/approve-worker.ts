/**
 * The recording worker of the hook's fast path (`out/cli/approve-worker.cjs`, started detached by
 * `hook-fast-main.ts` after it answered): takes its job file (and deletes it), opens the state
 * DB and the hub the hook was installed for, and records the allowed call exactly as the full
 * hook does (`recordAllowlisted`: the rule's hit, the request, the allowlist decision with the
 * signed rule). Nobody waits for it; what went wrong goes to stderr, which nobody reads.
 */
import { readFileSync, unlinkSync } from 'node:fs'
import { askFor, recordAllowlisted, type AllowingRule, type HarnessCall } from '../core/approvals'
import { openHookContext, openRoot } from '../core/root'
import type { HookCliOptions } from './commands/hook-flags'

/** What the hook hands the worker: its options (home resolved), its cwd, the call and the rule that allowed it. */
export interface AllowedJob {
  options: HookCliOptions & { agent: string; home: string }
  cwd: string
  call: HarnessCall
  rule: AllowingRule
}

/** Records the job in `file`; the exit code. */
export async function recordJob(file: string): Promise<number> {
  let job: AllowedJob
  try {
    job = JSON.parse(readFileSync(file, 'utf8')) as AllowedJob
  } finally {
    try {
      unlinkSync(file)
    } catch {
      // taken already
    }
  }
  const o = job.options
  const warn = (line: string): void => void process.stderr.write(`${line}\n`)
  // the state DB as it is (a hook never creates or migrates it)
  const root = openRoot({ home: o.home, env: process.env, state: 'existing' })
  const { ctx, close } = await openHookContext(root, {
    palace: o.palace,
    hub: o.hub,
    env: process.env,
    cwd: job.cwd,
    lockTimeoutMs: o.lockTimeoutMs,
    warn
  })
  let code = 0
  try {
    const failed = (line: string): void => {
      code = 1
      warn(line)
    }
    await recordAllowlisted({ ...ctx, warn: failed }, askFor(job.call, o, ctx), job.rule)
  } finally {
    await close()
    await root.close()
  }
  return code
}

if (typeof require !== 'undefined' && require.main === module && process.argv[2])
  recordJob(process.argv[2]).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`muster approve-hook: the allowed call was not recorded: ${(err as Error).message}\n`)
      process.exit(1)
    }
  )
