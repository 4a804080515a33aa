/**
 * The session hook's detached worker (`out/cli/session-worker.mjs`): opens the hub the hook was
 * installed for and appends one session state event, then exits. Nobody waits for it; a hub that
 * cannot take the event is written to stderr, which nobody reads (the state simply stays as it was).
 * With the record file the harness named (`transcript_path`), it then reads the session's usage
 * from where the last read ended, keeps the budgets' gate file in step and reports the session's
 * usage to the hub (`recordHookUsage`). Then it records the allowlisted calls the hook's fast path
 * left in the home's spool, if any (`drainHookJobs`): a fleet whose calls are all allowlisted still
 * gets them recorded every prompt.
 */
import { appendSessionState } from '../core/approvals'
import { defaultCliHome, resolveHome, SettingsStore } from '../core/fleet'
import { machineName, recordHookUsage } from '../core/usage'
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
}
if (job.transcript_path) {
  try {
    const db = root.get('state')
    const cwd = job.state.cwd || null
    const hub = ctx.hub
    await recordHookUsage(
      {
        harness: job.state.harness,
        transcript_path: job.transcript_path,
        session_id: job.state.session_id,
        agent: job.agent,
        project: job.project ?? ctx.projectFor(cwd) ?? cwd?.split(/[\\/]/).filter(Boolean).pop() ?? 'unknown',
        cwd: job.state.cwd
      },
      {
        db,
        keys: { trust: () => ctx.trust },
        settings: new SettingsStore(db),
        projectFor: ctx.projectFor,
        env: process.env,
        machine: machineName(),
        append: 'unreachable' in hub ? null : (input) => hub.append(input),
        warn: (line) => process.stderr.write(`${line}\n`)
      }
    )
  } catch (err) {
    process.stderr.write(`muster session-hook: usage not recorded: ${(err as Error).message}\n`)
  }
}
await close()
await root.close()
await drainHookJobs(home, (line) => process.stderr.write(`${line}\n`))
