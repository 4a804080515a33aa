/**
 * `muster events list|wait|watch|append|ack`: `mempalace logstream` compatible (same flags, same
 * `--json` envelopes, same exit codes: wait 2 on timeout; watch 0 match, 2 idle, 130 interrupted).
 */
import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { globals } from '../context'
import { printJson, type CliIo } from '../output'
import { registerWatch } from './events-watch'
import { addFilterFlags, CliExit, collect, filtersFrom, intFlag, printEventLines, withHub } from './hub-cli'

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

function orderFlag(v: string): 'asc' | 'desc' {
  if (v !== 'asc' && v !== 'desc') throw new Error(`--order must be asc or desc, got '${v}'`)
  return v
}

/** Registers the `events` command group. */
export function registerEvents(program: Command, io: CliIo): void {
  const events = program.command('events').description('read and write the MemPalace hub event stream (logstream)')

  const withList = (cmd: Command): Command =>
    addFilterFlags(cmd)
      .option('--hub <name>', 'a registered hub')
      .option('--since-event-id <id>', 'only events after this one (exclusive cursor)')
      .option('--before-event-id <id>', 'only events before this one (exclusive cursor)')
      .option('--since-created-at <ts>', 'only events created at or after this UTC time (a filter, not a cursor)')
      .option('--text <text>', 'only events whose body contains this text')
      .option('--limit <n>', 'at most N events (default 50, max 500)', intFlag('--limit'))
      .option('--order <order>', 'asc (default) or desc', orderFlag)
      .option('--preview', 'cut bodies to 200 characters')

  withList(events.command('list').description('list events matching filters'))
    .action(async (o: ListFlags, cmd: Command) => {
      const page = await withHub(cmd, io, (hubs, sel) => hubs.list({ ...sel, ...listOptions(o) }))
      if (globals(cmd).json) return printJson(io, { events: page.events, count: page.events.length })
      printEventLines(io, page.events)
    })

  withList(events.command('wait').description('long-poll until a matching event arrives (exit 2 on timeout)'))
    .option('--timeout-ms <ms>', 'give up after this long (default 60000, max 300000)', intFlag('--timeout-ms'))
    .action(async (o: ListFlags, cmd: Command) => {
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
    })

  registerWatch(events, io)

  events
    .command('append')
    .description('append one event')
    .requiredOption('--type <type>', 'event type (task.request, patch.ready, status, ...)')
    .requiredOption('--stream <stream>', 'stream, e.g. project/<slug>')
    .requiredOption('--room <room>', 'room: delegation, patches, reviews, status, rooms, approvals')
    .requiredOption('--from-agent <agent>', 'your agent id')
    .option('--topic <topic>').option('--to-agent <agent>').option('--correlation-id <id>').option('--branch <branch>')
    .option('--base-commit <sha>').option('--status <status>')
    .option('--body <text>', 'event body (verbatim)')
    .option('--body-file <file>', 'read the body from a file (verbatim)')
    .option('--metadata <json>', 'a JSON object')
    .option('--artifact-id <id>', 'attach an existing artifact (repeatable)', collect)
    .option('--hub <name>', 'a registered hub')
    .action(async (o: Record<string, string | string[] | undefined>, cmd: Command) => {
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
    })

  events
    .command('ack')
    .description('acknowledge an event with a new event.ack (the target is never changed)')
    .argument('<event_id>', 'the event to acknowledge')
    .requiredOption('--from-agent <agent>', 'your agent id')
    .option('--status <status>', 'claimed, applied, failed, blocked or superseded')
    .option('--body <text>', 'evidence (verbatim)')
    .option('--topic <topic>', "default: the target's topic")
    .option('--hub <name>', 'a registered hub')
    .action(async (eventId: string, o: Record<string, string | undefined>, cmd: Command) => {
      const { event } = await withHub(cmd, io, (hubs, sel) =>
        hubs.ack({ ...sel, event_id: eventId, from_agent: o.fromAgent!, status: o.status, body: o.body, topic: o.topic })
      )
      if (globals(cmd).json) return printJson(io, event)
      io.stdout(`acked ${eventId} with ${event.id}${event.status ? ` (${event.status})` : ''}\n`)
    })
}
