/** `muster presence` at work: the home's presence settings through the service; changes handed to an authenticator. */
import type { Command } from 'commander'
import type { PresenceStatusInfo } from '../../shared/api'
import { PRESENCE_POLICIES, RISK_CATEGORIES, RISK_CATEGORY_LABEL, type PresencePolicy } from '../../shared/approvals/presence'
import { visible } from '../../shared/visible-text'
import { globals, homeOf, withService } from '../context'
import { CliError, printJson, type CliIo } from '../output'
import { handToAuthenticator } from '../presence-handoff'
import { runningServe } from '../serve-beacon'

/** How long a change waits for the operator's authenticator. */
const CHANGE_WAIT_MS = 10 * 60_000

/** What each policy means, in a line. */
export const POLICY_MEANING: Record<PresencePolicy, string> = {
  off: 'no presence: a one-tap decision signed with the operator key approves',
  risky: 'presence for the calls on the risky list, one tap for the rest',
  'every-allow': 'presence for every allow'
}

const status = (cmd: Command, io: CliIo): Promise<PresenceStatusInfo> => withService(cmd, io, (s) => s.call('presence.status', {}))

/** `presence`: the policy, the authenticators, the risky list. */
export async function show(io: CliIo, _o: unknown, cmd: Command): Promise<void> {
  const st = await status(cmd, io)
  const serve = runningServe(homeOf(cmd, io))
  if (globals(cmd).json) return printJson(io, { ...st, serve })
  const lines = [`presence policy: ${st.policy} (${POLICY_MEANING[st.policy]})`]
  if (st.warning) lines.push(`warning: ${st.warning}${st.credentials.length ? ' (the policy is off)' : ' (no authenticator is enrolled)'}`)
  lines.push(st.credentials.length ? `authenticators (${st.credentials.length}):` : 'authenticators: none (muster presence enroll)')
  for (const c of st.credentials)
    lines.push(
      `  ${visible(c.name)}  ${c.rp_id}  enrolled ${c.created_at.slice(0, 16).replace('T', ' ')}${c.origin ? ` from ${visible(c.origin)}` : ''}  id ${c.id}`
    )
  lines.push(`risky list (${st.risky.length}; edit it in Settings → Presence):`)
  for (const cat of RISK_CATEGORIES) {
    const of = st.risky.filter((r) => r.category === cat)
    if (of.length)
      lines.push(
        `  ${RISK_CATEGORY_LABEL[cat]}: ${of.map((r) => `${r.kind === 'shell' ? '' : `${r.kind}:`}${visible(r.pattern)}`).join(', ')}`
      )
  }
  io.stdout(`${lines.join('\n')}\n`)
}

/** Says the outcome of a change: a JSON document or a line. */
function report(io: CliIo, cmd: Command, line: string, doc: unknown): void {
  if (globals(cmd).json) printJson(io, doc)
  else io.stdout(`${line}\n`)
}

/** `presence enroll [--name N]`: in the browser (a second one with the presence of one enrolled). */
export async function enroll(io: CliIo, o: { name?: string }, cmd: Command): Promise<void> {
  const before = await status(cmd, io)
  const ids = new Set(before.credentials.map((c) => c.id))
  const line = await handToAuthenticator(io, homeOf(cmd, io), {
    route: `#/settings?presence=enrol${o.name ? `&name=${encodeURIComponent(o.name)}` : ''}`,
    what: before.credentials.length ? 'Enrolling another authenticator' : 'Enrolling an authenticator',
    timeoutMs: CHANGE_WAIT_MS,
    done: async () => {
      const added = (await status(cmd, io)).credentials.find((c) => !ids.has(c.id))
      return added ? `enrolled ${visible(added.name)} (${added.rp_id}, id ${added.id})` : null
    }
  })
  report(io, cmd, line, await status(cmd, io))
}

/** `presence remove ID`. */
export async function remove(io: CliIo, id: string, _o: unknown, cmd: Command): Promise<void> {
  const before = await status(cmd, io)
  if (!before.credentials.some((c) => c.id === id))
    throw new CliError(`no enrolled authenticator ${visible(id)} (muster presence lists them)`)
  if (before.credentials.length === 1 && before.policy !== 'off')
    throw new CliError(`the policy is ${before.policy}: set it to off before removing the last authenticator`)
  const line = await handToAuthenticator(io, homeOf(cmd, io), {
    route: `#/settings?presence=remove&id=${encodeURIComponent(id)}`,
    what: 'Removing an authenticator',
    timeoutMs: CHANGE_WAIT_MS,
    done: async () => ((await status(cmd, io)).credentials.some((c) => c.id === id) ? null : `removed ${id}`)
  })
  report(io, cmd, line, { removed: id })
}

/** `presence policy MODE`: refused without an authenticator (unless off); confirmed with presence once one is enrolled. */
export async function policy(io: CliIo, mode: string, _o: unknown, cmd: Command): Promise<void> {
  if (!(PRESENCE_POLICIES as readonly string[]).includes(mode))
    throw new CliError(`the policy is every-allow, risky or off, not '${visible(mode)}'`)
  const want = mode as PresencePolicy
  const before = await status(cmd, io)
  if (before.policy === want) return report(io, cmd, `presence policy: ${want} (unchanged)`, before)
  if (before.credentials.length === 0) {
    // nothing enrolled: only "off" is allowed, and it needs no presence (the service refuses the rest)
    const after = await withService(cmd, io, (s) => s.call('presence.setPolicy', { policy: want }))
    return report(io, cmd, `presence policy: ${after.policy}`, after)
  }
  const line = await handToAuthenticator(io, homeOf(cmd, io), {
    route: `#/settings?presence=policy&policy=${want}`,
    what: `Setting the presence policy to ${want}`,
    timeoutMs: CHANGE_WAIT_MS,
    done: async () => ((await status(cmd, io)).policy === want ? `presence policy: ${want} (${POLICY_MEANING[want]})` : null)
  })
  report(io, cmd, line, await status(cmd, io))
}
