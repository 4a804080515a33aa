/** `muster thread` at work: the folded state, then one line per step. */
import type { Command } from 'commander'
import { globals } from '../context'
import { age, printJson, truncate, type CliIo } from '../output'
import { withHub } from './hub-cli'
import { visible } from '../../shared/visible-text'

/** Prints one conversation. */
export async function thread(io: CliIo, correlationId: string, o: { stuckAfterMs?: number }, cmd: Command): Promise<void> {
  if (o.stuckAfterMs !== undefined && o.stuckAfterMs < 0)
    throw new Error('--stuck-after-ms must be zero or a positive number of milliseconds')
  const {
    hub: _h,
    palace: _p,
    events,
    ...fold
  } = await withHub(cmd, io, (hubs, sel) => hubs.thread({ ...sel, correlation_id: correlationId, stuck_after_ms: o.stuckAfterMs }))
  if (globals(cmd).json) return printJson(io, { ...fold, events, count: events.length })
  const who = fold.state_by ? ` by ${fold.state_by} ${age(fold.state_at)}` : ''
  io.stdout(visible(`${correlationId}: ${fold.state.toUpperCase()}${who}${fold.stuck ? '  STUCK' : ''}`) + '\n')
  if (fold.request)
    io.stdout(
      visible(
        `  ${fold.request.title}  (${fold.request.from_agent} -> ${fold.request.to_agent ?? '-'}, ${fold.request.branch ?? '-'} @ ${fold.request.base_commit ?? '-'})`
      ) + '\n'
    )
  for (const s of fold.steps) {
    const mark = s.voided ? ' (voided)' : ''
    const body = truncate(s.body.replace(/\s+/g, ' ').trim(), 70)
    io.stdout(visible(`  ${s.seq}  ${s.created_at}  ${s.type}${s.status ? '/' + s.status : ''}${mark}  ${s.from_agent}  ${body}`) + '\n')
  }
}
