/** `muster approvals list | decide` at work, through the service like the Approvals screen. */
import { stageWords } from '../../shared/approvals/stage-words'
import type { Command } from 'commander'
import type { ApprovalItem } from '../../shared/api'
import type { MusterService } from '../../core/service-types'
import { approvalLink } from '../../shared/links'
import { globals, homeOf, withService } from '../context'
import { CliError, CliExit, printJson, table, truncate, type CliIo } from '../output'
import { handToAuthenticator } from '../presence-handoff'
import { visible } from '../../shared/visible-text'
import { provenanceWords } from '../../shared/approvals/provenance'

/** One line per forged decision: what it claimed, who really wrote it, why it is not trusted. */
function forgedLines(items: ApprovalItem[]): string {
  return items
    .flatMap((i) =>
      i.forged.map(
        (f) =>
          `FORGED ${i.correlation_id}: ${visible(f.decision)} claiming to be by ${visible(f.decided_by)}, written by ${visible(f.from_agent)} (${visible(f.why)}); ignored\n`
      )
    )
    .join('')
}

/** One line per request whose harness said where the call comes from (MCP server, subagent, mode, skill). */
function provenanceLines(items: ApprovalItem[]): string {
  return items
    .filter((i) => i.provenance)
    .map((i) => `  ${i.correlation_id}: ${visible(provenanceWords(i.provenance).join(', '))}\n`)
    .join('')
}

/** One line per request that a rule looks like it covers, but does not (a wildcard over a dangerous argument): why. */
function declinedLines(items: ApprovalItem[]): string {
  return items
    .filter((i) => i.rule_declined)
    .map((i) => `  ${i.correlation_id}: asked because ${visible(i.rule_declined!)}\n`)
    .join('')
}

/** The hub selection of these commands: `--hub`, the global `--palace`, or every known hub. */
function selection(o: { hub?: string }, cmd: Command): { hub?: string; palace?: string } {
  const palace = globals(cmd).palace
  if (o.hub && palace) throw new CliError('give --hub or --palace, not both')
  return o.hub ? { hub: o.hub } : palace ? { palace } : {}
}

function waited(item: ApprovalItem, now = Date.now()): string {
  const s = Math.max(0, Math.round(((item.decision ? Date.parse(item.decision.created_at) : now) - Date.parse(item.created_at)) / 1000))
  return s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`
}

/** Lists the inbox. */
export async function listApprovals(io: CliIo, o: { hub?: string; history?: number }, cmd: Command): Promise<void> {
  const sel = selection(o, cmd)
  const out = await withService(cmd, io, (s) => s.call('approvals.list', { ...sel, ...(o.history ? { history_limit: o.history } : {}) }))
  const failed = out.hubs.find((h) => !h.ok)
  // the one hub asked for cannot be read: a failure (exit 1), never "nothing is waiting for you"
  if ((sel.hub || sel.palace) && failed) throw new CliError(failed.error ?? `hub ${failed.hub} could not be read`)
  if (globals(cmd).json) return printJson(io, o.history ? out : { ...out, history: undefined })
  for (const h of out.hubs.filter((x) => !x.ok)) io.stderr(`muster: hub ${visible(h.hub)} could not be read: ${visible(h.error ?? '')}\n`)
  const unreadable = out.hubs.filter((h) => !h.ok).map((h) => `hub ${visible(h.hub)}`)
  if (!out.pending.length)
    io.stdout(
      `nothing is waiting for you${unreadable.length ? ` in the hubs that could be read (not read: ${unreadable.join(', ')})` : ''}\n`
    )
  else {
    const rows = out.pending.map((p) => [waited(p), p.agent, p.project, p.correlation_id, truncate(p.summary, 70)])
    io.stdout(table([['WAITING', 'AGENT', 'PROJECT', 'ID', 'REQUEST'], ...rows]))
    io.stdout(provenanceLines(out.pending))
    io.stdout(declinedLines(out.pending))
  }
  io.stdout(forgedLines(out.pending))
  if (o.history) {
    io.stdout('\n')
    const rows = out.history.map((h) => [
      h.state,
      stageWords(h),
      h.decision?.decided_by ?? '-',
      waited(h),
      h.agent,
      h.correlation_id,
      truncate(h.summary, 50) + (h.conflicts.length ? `  (+${h.conflicts.length} conflict)` : '')
    ])
    io.stdout(table([['OUTCOME', 'STAGE', 'BY', 'WAITED', 'AGENT', 'ID', 'REQUEST'], ...rows]))
    io.stdout(forgedLines(out.history))
  }
}

/**
 * An allow that needs the operator's presence: handed to an enrolled authenticator through this
 * home's `muster serve` (the page opens on the request, one tap and the authenticator's prompt),
 * then waited for; the request as it ended.
 */
async function handAllow(
  io: CliIo,
  cmd: Command,
  s: MusterService,
  target: { hub?: string; palace?: string },
  id: string,
  risk: string | null
): Promise<ApprovalItem> {
  const find = async (): Promise<ApprovalItem | undefined> => {
    const all = await s.call('approvals.list', { ...target, history_limit: 500 })
    return [...all.pending, ...all.history].find((i) => i.id === id || i.correlation_id === id)
  }
  const first = await find()
  if (!first) throw new CliError(`no approval request '${visible(id)}'`)
  const hubName = first.hub === first.palace ? null : first.hub
  let ended: ApprovalItem | undefined
  await handToAuthenticator(io, homeOf(cmd, io), {
    route: `${approvalLink(hubName, first.id)}&confirm=allow`,
    what: `This allow (${visible(first.agent)}: ${visible(first.summary)}${risk ? `; ${risk}` : ''})`,
    timeoutMs: Math.max(1000, Date.parse(first.expires_at ?? '') - Date.now() || 10 * 60_000),
    done: async () => {
      const now = await find()
      if (!now || now.state === 'pending') return null
      ended = now
      return now.state
    }
  })
  return ended!
}

/** Decides one request; exit 2 when another decision came first. */
export async function decideApproval(
  io: CliIo,
  id: string,
  decision: string,
  o: { hub?: string; reason?: string },
  cmd: Command
): Promise<void> {
  if (decision !== 'allow' && decision !== 'deny') throw new CliError(`decision must be allow or deny, got '${decision}'`)
  const sel = selection(o, cmd)
  const out = await withService(cmd, io, async (s) => {
    let target = sel
    if (!sel.hub && !sel.palace) {
      // find the hub holding the request among the known ones
      const all = await s.call('approvals.list', { history_limit: 500 })
      const item = [...all.pending, ...all.history].find((i) => i.id === id || i.correlation_id === id)
      if (!item) throw new CliError(`no approval request '${id}' in the known hubs (pass --hub or --palace)`)
      target = item.hub === item.palace ? { palace: item.palace } : { hub: item.hub }
    }
    if (decision === 'allow') {
      const ch = await s.call('approvals.presenceChallenge', { ...target, id, decision })
      if (ch.needed) return { handed: await handAllow(io, cmd, s, target, id, ch.risk) }
    }
    return s.call('approvals.decide', { ...target, id, decision, ...(o.reason !== undefined ? { reason: o.reason } : {}) })
  })
  if ('handed' in out) {
    const item = out.handed
    if (globals(cmd).json) return printJson(io, { item, outcome: item.decision?.presence ? 'decided' : 'elsewhere' })
    const d = item.decision
    io.stdout(
      d?.decision === 'allow' && d.presence
        ? `allowed ${item.correlation_id} with your presence (${visible(item.agent)}: ${visible(item.summary)})\n`
        : `${item.correlation_id} ended ${item.state}${d ? ` (${d.decision} by ${visible(d.decided_by)})` : ''}\n`
    )
    if (!(d?.decision === 'allow' && d.presence)) throw new CliExit(2)
    return
  }
  if (globals(cmd).json) printJson(io, out)
  else if (out.outcome === 'decided')
    io.stdout(
      `${decision === 'allow' ? 'allowed' : 'denied'} ${out.item.correlation_id} (${visible(out.item.agent)}: ${visible(out.item.summary)})\n`
    )
  else if (out.item.decision)
    io.stderr(
      `muster: ${out.item.correlation_id} was already decided (${out.item.decision.decision} by ${visible(out.item.decision.decided_by)}); your ${decision} is recorded as a conflict and not applied\n`
    )
  else io.stderr(`muster: your ${decision} of ${out.item.correlation_id} was recorded, but the agent's gate does not accept it\n`)
  if (out.outcome === 'conflict') throw new CliExit(2)
}
