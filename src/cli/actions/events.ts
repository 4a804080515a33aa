/**
 * `muster events list|wait|append|ack` at work (watch is in `events-watch.ts`), printing what
 * upstream's `cmd_logstream` prints (cli/cmd_coord.py): `{"events", "count"}` for list, the wait
 * result plus `count`, the stored event for append/ack; human lines otherwise.
 */
import type { Command } from 'commander'
import { globals } from '../context'
import { CliExit, type CliIo } from '../output'
import { filtersFrom } from '../commands/hub-flags'
import { metadataArg } from '../metadata-arg'
import { readTextArg } from '../read-text'
import { printUpstreamEvents, printUpstreamJson, upstreamEventLine } from '../upstream-output'
import { withHub, withUpstreamHub } from './hub-cli'
import { refuseApprovalEvents } from '../../shared/event-type'

/** Flags of list/wait besides the filters. */
interface ListFlags extends Record<string, unknown> {
  sinceEventId?: string
  beforeEventId?: string
  sinceCreatedAt?: string
  limit?: number
  order?: 'asc' | 'desc'
  preview?: boolean
  text?: string
  timeoutMs?: number
}

function listOptions(o: ListFlags): Record<string, unknown> {
  return {
    ...filtersFrom(o),
    ...(o.sinceEventId !== undefined ? { since_event_id: o.sinceEventId } : {}),
    ...(o.beforeEventId !== undefined ? { before_event_id: o.beforeEventId } : {}),
    ...(o.sinceCreatedAt !== undefined ? { since_created_at: o.sinceCreatedAt } : {}),
    ...(o.text ? { text: o.text } : {}),
    limit: o.limit,
    ...(o.order ? { order: o.order } : {}),
    preview: !!o.preview
  }
}

/** `events list`. */
export async function list(io: CliIo, o: ListFlags, cmd: Command): Promise<void> {
  const page = await withUpstreamHub(cmd, io, (hubs, sel) => hubs.list({ ...sel, ...listOptions(o) }))
  if (globals(cmd).json) return printUpstreamJson(io, { events: page.events, count: page.events.length })
  printUpstreamEvents(io, page.events)
}

/** `events wait`: exit 2 on timeout, 130 when interrupted. */
export async function wait(io: CliIo, o: ListFlags, cmd: Command): Promise<void> {
  const ac = new AbortController()
  const onSig = (): void => ac.abort()
  process.once('SIGINT', onSig)
  try {
    const r = await withUpstreamHub(cmd, io, (hubs, sel) =>
      hubs.wait({ ...sel, ...listOptions(o), timeout_ms: o.timeoutMs, signal: ac.signal })
    )
    if (ac.signal.aborted) throw new CliExit(130)
    if (globals(cmd).json) printUpstreamJson(io, { timed_out: r.timed_out, events: r.events, count: r.events.length })
    else if (r.timed_out) io.stdout('Timed out; no matching events.\n')
    else printUpstreamEvents(io, r.events)
    if (r.timed_out) throw new CliExit(2)
  } finally {
    process.off('SIGINT', onSig)
  }
}

/** `events append`. */
export async function append(io: CliIo, o: Record<string, string | string[] | undefined>, cmd: Command): Promise<void> {
  refuseApprovalEvents(o.type)
  const body = await readTextArg(io, o.body as string | undefined, o.bodyFile as string | undefined)
  const metadata = metadataArg(o.metadata as string | undefined)
  const { event } = await withHub(cmd, io, (hubs, sel) =>
    hubs.append({
      ...sel,
      type: o.type as string,
      stream: o.stream as string,
      room: o.room as string,
      from_agent: o.fromAgent as string,
      topic: o.topic as string,
      to_agent: o.toAgent as string,
      correlation_id: o.correlationId as string,
      branch: o.branch as string,
      base_commit: o.baseCommit as string,
      status: o.status as string,
      body,
      metadata,
      artifact_ids: (o.artifactId as string[] | undefined) ?? null
    })
  )
  if (globals(cmd).json) return printUpstreamJson(io, event)
  io.stdout('Appended:\n' + upstreamEventLine(event))
}

/** `events ack`. */
export async function ack(io: CliIo, eventId: string, o: Record<string, string | undefined>, cmd: Command): Promise<void> {
  const { event } = await withHub(cmd, io, (hubs, sel) =>
    hubs.ack({ ...sel, event_id: eventId, from_agent: o.fromAgent!, status: o.status, body: o.body ?? '', topic: o.topic })
  )
  if (globals(cmd).json) return printUpstreamJson(io, event)
  io.stdout('Acknowledged:\n' + upstreamEventLine(event))
}
