/**
 * The entry of `muster approve-hook` (bundled as `out/cli/approve-hook.mjs`; `bin/muster.cjs`
 * routes a hook call here). It starts on every tool call of every agent, so it loads neither
 * commander, the service, the contract's zod schemas nor the dashboard: only the hook's core,
 * one hub and Muster's state DB. A stop signal (the harness giving up on the hook) is recorded as
 * a timeout before the process ends; a harness that is gone (killed) as an abandoned request.
 */
import { watchHarness } from '../core/approvals/harness-watch'
import { parseHookArgv } from './commands/hook-flags'
import { readAll, runHookCommand } from './approve-hook/run'
import { processIo } from './output'

const stop = new AbortController()
process.once('SIGTERM', () => stop.abort())
process.once('SIGINT', () => stop.abort())

// the harness killed outright (SIGKILL) sends no signal: its absence is noticed instead
const harness = watchHarness()
try {
  const opts = parseHookArgv(process.argv.slice(2))
  process.exitCode = await runHookCommand({ ...processIo(), readStdin: () => readAll(process.stdin) }, opts, stop.signal, harness.signal)
} catch (err) {
  // exit 2: every harness reads it as "block this call" (exit 1 would let it through)
  process.stderr.write(`muster approve-hook: ${err instanceof Error ? err.message : String(err)}; the call is blocked\n`)
  process.exitCode = 2
} finally {
  harness.stop()
}
