/** `muster events list|wait|append|ack` at work (watch is in `events-watch.ts`). */
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { globals } from '../context'
import { CliExit, printJson, type CliIo } from '../output'
import { filtersFrom } from '../commands/hub-flags'
import { printEventLines, withHub } from './hub-cli'

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
    ...(o.sinceEventId ? { since_event_id: o.sinceEventId } : {}),
    ...(o.beforeEventId ? { before_event_id: o.beforeEventId } : {}),
    ...(o.sinceCreatedAt ? { since_created_at: o.sinceCreatedAt } : {}),
    ...(o.text ? { text: o.text } : {}),
    limit: o.limit,
    order: o.order ?? 'asc',
    preview: !!o.preview
  }
}

/** `events list`. */
export async function list(io: CliIo, o: ListFlags, cmd: Command): Promise<void> {
  const page = await withHub(cmd, io, (hubs, sel) => hubs.list({ ...sel, ...listOptions(o) }))
  if (globals(cmd).json) return printJson(io, { events: page.events, count: page.events.length })
  printEventLines(io, page.events)
}

/** `events wait`: exit 2 on timeout, 130 when interrupted. */
export async function wait(io: CliIo, o: ListFlags, cmd: Command): Promise<void> {
  const ac = new AbortController()
  const onSig = (): void => ac.abort()
  process.once('SIGINT', onSig)
  try {
    const r = await withHub(cmd, io, (hubs, sel) => hubs.wait({ ...sel, ...listOptions(o), timeout_ms: o.timeoutMs, signal: ac.signal }))
    if (globals(cmd).json) printJson(io, { timed_out: r.timed_out, events: r.events, count: r.events.length })
    else if (r.timed_out) io.stderr('timed out waiting for events\n')
    else printEventLines(io, r.events)
    if (ac.signal.aborted) throw new CliExit(130)
    if (r.timed_out) throw new CliExit(2)
  } finally {
    process.off('SIGINT', onSig)
  }
}

/** `events append`. */
export async function append(io: CliIo, o: Record<string, string | string[] | undefined>, cmd: Command): Promise<void> {
  if (o.body !== undefined && o.bodyFile !== undefined) throw new Error('pass --body or --body-file, not both')
  const body = o.bodyFile !== undefined ? readFileSync(o.bodyFile as string, 'utf8') : ((o.body as string | undefined) ?? '')
  let metadata: Record<string, unknown> | null = null
  if (o.metadata !== undefined) {
    try {
      metadata = JSON.parse(o.metadata as string) as Record<string, unknown>
    } catch (err) {
      throw new Error(`--metadata is not valid JSON: ${(err as Error).message}`)
    }
  }
  const { event } = await withHub(cmd, io, (hubs, sel) =>
    hubs.append({
      ...sel, type: o.type as string, stream: o.stream as string, room: o.room as string, from_agent: o.fromAgent as string,
      topic: o.topic as string, to_agent: o.toAgent as string, correlation_id: o.correlationId as string, branch: o.branch as string,
      base_commit: o.baseCommit as string, status: o.status as string, body, metadata, artifact_ids: (o.artifactId as string[]) ?? []
    })
  )
  if (globals(cmd).json) return printJson(io, event)
  io.stdout(`appended ${event.id} (seq ${event.seq})\n`)
}

/** `events ack`. */
export async function ack(io: CliIo, eventId: string, o: Record<string, string | undefined>, cmd: Command): Promise<void> {
  const { event } = await withHub(cmd, io, (hubs, sel) =>
    hubs.ack({ ...sel, event_id: eventId, from_agent: o.fromAgent!, status: o.status, body: o.body, topic: o.topic })
  )
  if (globals(cmd).json) return printJson(io, event)
  io.stdout(`acked ${eventId} with ${event.id}${event.status ? ` (${event.status})` : ''}\n`)
}
