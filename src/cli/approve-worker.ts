/**
 * The spool's worker (`out/cli/approve-worker.cjs`, started detached by the full hook when the
 * hook's fast path has left allowlisted calls to record): records every job waiting in the spool
 * of the home it is given (`drainHookJobs`: the rule's hit, the request, the allowlist decision
 * with the signed rule) and exits. Nobody waits for it; what went wrong goes to stderr, which
 * nobody reads.
 */
import { drainHookJobs, openRoot } from '../core/root'

/** Records the jobs waiting in the spool of `home`; the exit code. */
export async function drainHome(home: string): Promise<number> {
  let code = 0
  await drainHookJobs(
    home,
    (line) => {
      code = 1
      process.stderr.write(`${line}\n`)
    },
    openRoot
  )
  return code
}

if (typeof require !== 'undefined' && require.main === module && process.argv[2])
  drainHome(process.argv[2]).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`muster approve-hook: the allowed calls were not recorded: ${(err as Error).message}\n`)
      process.exit(1)
    }
  )
