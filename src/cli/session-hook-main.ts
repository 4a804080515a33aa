/**
 * The entry of `muster session-hook` (bundled as CommonJS `out/cli/session-hook.cjs`, required by
 * `bin/muster.cjs` so it never starts the ES module loader). It runs on every prompt of every
 * agent: it reads the payload, starts the detached worker that appends the session state, and
 * exits 0 whatever happens (a lifecycle hook must never fail the harness's turn).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSessionHookArgv } from './session-hook/args'
import { MAX_SESSION_INPUT_BYTES, runSessionHook } from './session-hook/run'

/** Runs one call with this process's argv and stdin. */
export function main(argv: readonly string[]): void {
  let why: string | null
  try {
    const buf = readFileSync(0)
    const input = buf.length > MAX_SESSION_INPUT_BYTES ? '' : buf.toString('utf8')
    why = runSessionHook(parseSessionHookArgv(argv), input, process.cwd(), join(__dirname, 'session-worker.mjs'))
  } catch (err) {
    why = `muster session-hook: nothing recorded: ${(err as Error).message}`
  }
  if (why) process.stderr.write(`${why}\n`)
  process.exitCode = 0
}
