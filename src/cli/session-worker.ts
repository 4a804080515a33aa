/**
 * The session hook's detached worker (`out/cli/session-worker.mjs`): opens the hub the hook was
 * installed for and appends one session state event, then exits. A call's receipt (the marker the
 * hook claimed) is recorded in the marker's hub; a session's end (SessionEnd, Interrupt) records
 * every marker it left (`settleSessionEnd`): what still waited is withdrawn. Nobody waits for it; a hub that
 * cannot take the event is written to stderr, which nobody reads (the state simply stays as it was).
 * With the record file the harness named (`transcript_path`), it then reads the session's usage
 * from where the last read ended, keeps the budgets' gate file in step and reports the session's
 * usage to the hub (`recordHookUsage`). Then it records the allowlisted calls the hook's fast path
 * left in the home's spool, if any (`drainHookJobs`): a fleet whose calls are all allowlisted still
 * gets them recorded every prompt.
 */
import { appendSessionState, claimed, recordTaken, settleSessionEnd, type HookContext, type ReceiptMarker } from '../core/approvals'
import { SettingsStore } from '../core/fleet'
import { machineName, recordHookUsage } from '../core/usage'
import { drainHookJobs, openHookContext, openHookEntry, openRoot } from '../core/root'
import type { SessionJob } from './session-hook/run'

const job = JSON.parse(process.argv[2] ?? '{}') as SessionJob
const warn = (line: string): void => void process.stderr.write(`${line}\n`)
const { home, root, ctx, close } = await openHookEntry(job.home, {
  palace: job.palace,
  hub: job.hub,
  env: process.env,
  cwd: job.cwd || process.cwd(),
  warn
})
// the hub of a marker: the one the approve-hook was told (the same as the session hook's, usually)
const others = new Map<string, Awaited<ReturnType<typeof openHookContext>>>()
const hubOf = async (m: ReceiptMarker) => {
  let hub: HookContext['hub'] = ctx.hub
  const key = `${m.hub ?? ''}\u0000${m.palace ?? ''}`
  if ((m.hub ?? '') !== (job.hub ?? '') || (m.palace ?? '') !== (job.palace ?? '')) {
    let opened = others.get(key)
    if (!opened) {
      opened = await openHookContext(root, { palace: m.palace, hub: m.hub, env: process.env, cwd: job.cwd || process.cwd(), warn })
      others.set(key, opened)
    }
    hub = opened.ctx.hub
  }
  if ('unreachable' in hub) throw new Error(hub.unreachable)
  return hub
}
if (job.receipt) {
  const r = job.receipt
  const taken = claimed(r.claim)
  if (taken) await recordTaken([taken], () => r.outcome, { hook_event: r.hook_event, from_agent: job.agent }, hubOf, warn)
}
if (job.state) {
  try {
    await appendSessionState(ctx, { agent: job.agent, project: job.project, state: job.state })
  } catch (err) {
    process.stderr.write(`muster session-hook: the session state was not recorded: ${(err as Error).message}\n`)
    process.exitCode = 1
  }
}
if (job.state && job.end) {
  const s = job.state
  await settleSessionEnd(
    home,
    s.harness,
    s.session_id,
    job.end,
    { hook_event: s.hook_event, from_agent: job.agent, reason: s.message ?? (s.state === 'done' ? 'the session ended' : s.state) },
    hubOf,
    warn
  )
}
if (job.state && job.transcript_path) {
  try {
    const db = root.get('state')
    const cwd = job.state.cwd || null
    const state = job.state
    const hub = ctx.hub
    await recordHookUsage(
      {
        harness: state.harness,
        transcript_path: job.transcript_path,
        session_id: state.session_id,
        agent: job.agent,
        project: job.project ?? ctx.projectFor(cwd) ?? cwd?.split(/[\\/]/).filter(Boolean).pop() ?? 'unknown',
        cwd: state.cwd
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
for (const o of others.values()) await o.close()
await close()
await root.close()
await drainHookJobs(home, (line) => process.stderr.write(`${line}\n`), openRoot)
