/**
 * The session hook's detached worker (`out/cli/session-worker.mjs`): opens the hub the hook was
 * installed for and appends one session state event, then exits. Nobody waits for it; a hub that
 * cannot take the event is written to stderr, which nobody reads (the state simply stays as it was).
 * Then it records the allowlisted calls the hook's fast path left in the home's spool, if any
 * (`drainHookJobs`): a fleet whose calls are all allowlisted still gets them recorded every prompt.
 */
import { appendSessionState } from '../core/approvals'
import { defaultCliHome, resolveHome } from '../core/fleet'
import { drainHookJobs, openHookContext, openRoot } from '../core/root'
import type { SessionJob } from './session-hook/run'

const job = JSON.parse(process.argv[2] ?? '{}') as SessionJob
// the state DB as it is (a hook never creates or migrates it)
const home = resolveHome(job.home, process.env, defaultCliHome())
const root = openRoot({ home, env: process.env, state: 'existing' })
const { ctx, close } = await openHookContext(root, {
  palace: job.palace,
  hub: job.hub,
  env: process.env,
  cwd: job.cwd || process.cwd(),
  warn: (line) => process.stderr.write(`${line}\n`)
})
try {
  await appendSessionState(ctx, { agent: job.agent, project: job.project, state: job.state })
} catch (err) {
  process.stderr.write(`muster session-hook: the session state was not recorded: ${(err as Error).message}\n`)
  process.exitCode = 1
} finally {
  await close()
  await root.close()
}
await drainHookJobs(home, (line) => process.stderr.write(`${line}\n`))
