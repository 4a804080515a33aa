/**
 * The entry of `muster approve-hook` (bundled alone, as CommonJS, into `out/cli/approve-hook.cjs`;
 * `bin/muster.cjs` requires it for a hook call and calls `runHook`). It starts on every tool call
 * of every agent, so it loads neither commander, the ES module loader, the service, the contract's
 * zod schemas nor the dashboard: only the hook's core, one hub and Muster's state DB. A stop signal
 * (the harness giving up on the hook) is recorded as a timeout before the process ends; a harness
 * that is gone (killed), or one that answered the call itself (SIGUSR2, SIGALRM), as an abandoned request. Once it has answered, allowlisted calls the fast
 * path left in the home's spool are handed to a detached worker (`approve-worker.cjs`) to record.
 */
import { join } from 'node:path'
import { jobsWaiting, startDetached, watchHarness } from '../core/approvals'
import { defaultCliHome, resolveHome } from '../core/fleet'
import { parseHookArgv } from './commands/hook-flags'
import { readAll, runHookCommand } from './approve-hook/run'
import { processIo } from './output'

/**
 * Answers the hook call in `argv` (the words after `muster`) and sets the exit code; `stdin`: the
 * hook input when the fast path (`hook-fast-main.ts`) has read it already.
 */
export async function runHook(argv: readonly string[], stdin?: Uint8Array | null): Promise<void> {
  const stop = new AbortController()
  process.once('SIGTERM', () => stop.abort())
  process.once('SIGINT', () => stop.abort())
  // the harness answered the call itself (Muster's OpenCode plugin saw OpenCode reply first):
  // SIGUSR2 a reject, SIGALRM an allow; the request is recorded as not delivered. Both end a
  // process by default, so one that comes before these handlers ends the hook before it asked
  // anything (SIGUSR1 would not: Node opens its inspector on it)
  const answered = new AbortController()
  if (process.platform !== 'win32') {
    process.once('SIGUSR2', () => answered.abort('reject'))
    process.once('SIGALRM', () => answered.abort('allow'))
  }

  // the harness killed outright (SIGKILL) sends no signal: its absence is noticed instead
  const harness = watchHarness()
  // a harness gone before the answer is printed leaves a pipe nobody reads: that write fails
  // (EPIPE) without ending the hook, which records the answer as withdrawn, not delivered
  let readerGone = false
  process.stdout.on('error', () => (readerGone = true))
  try {
    const opts = parseHookArgv([...argv])
    process.exitCode = await runHookCommand(
      { ...processIo(), readStdin: () => (stdin ? Promise.resolve(stdin) : readAll(process.stdin)) },
      opts,
      stop.signal,
      harness.signal,
      answered.signal,
      () => readerGone || harness.check()
    )
  } catch (err) {
    // exit 2: every harness reads it as "block this call" (exit 1 would let it through)
    process.stderr.write(`muster approve-hook: ${err instanceof Error ? err.message : String(err)}; the call is blocked\n`)
    process.exitCode = 2
  } finally {
    harness.stop()
  }
  startSpoolWorker(argv)
}

/** Starts the spool's worker when the hook's home has allowlisted calls to record; never throws. */
function startSpoolWorker(argv: readonly string[]): void {
  try {
    const home = resolveHome(parseHookArgv([...argv]).home, process.env, defaultCliHome())
    if (jobsWaiting(home)) startDetached(join(__dirname, 'approve-worker.cjs'), home)
  } catch {
    // bad options (answered already) or no worker: the next drainer records them
  }
}
