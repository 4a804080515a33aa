/**
 * `muster events list|wait|watch|append|ack`: `mempalace logstream` compatible (same flags, same
 * `--json` envelopes, same exit codes: wait 2 on timeout; watch 0 match, 2 idle, 130 interrupted).
 */
import type { Command } from 'commander'
import { lazyAction } from '../lazy'
import type { CliIo } from '../output'
import { addFilterFlags, collect, intFlag } from './hub-flags'

function orderFlag(v: string): 'asc' | 'desc' {
  if (v !== 'asc' && v !== 'desc') throw new Error(`--order must be asc or desc, got '${v}'`)
  return v
}

/** Registers the `events` command group. */
export function registerEvents(program: Command, io: CliIo): void {
  const actions = () => import('../actions/events')
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

  withList(events.command('list').description('list events matching filters')).action(lazyAction(io, actions, 'list'))

  withList(events.command('wait').description('long-poll until a matching event arrives (exit 2 on timeout)'))
    .option('--timeout-ms <ms>', 'give up after this long (default 60000, max 300000)', intFlag('--timeout-ms'))
    .action(lazyAction(io, actions, 'wait'))

  addFilterFlags(events.command('watch').description('wait for matching events, keeping a cursor in a state file'))
    .option('--agent <id>', 'watch for this agent: --to-agent ID --exclude-from-agent ID')
    .option('--exclude-from-agent <id>', 'ignore events written by this agent (repeatable; beats every match)', collect)
    .option('--state-file <file>', 'cursor file (default with --agent: ~/.mempalace/watch/<agent>.json)')
    .option('--since-event-id <id>', 'start after this event (overrides the state file)')
    .option('--idle-exit-ms <ms>', 'exit 2 after this long without a match', intFlag('--idle-exit-ms'))
    .option('--poll-ms <ms>', 'poll interval (default 200)', intFlag('--poll-ms'))
    .option('--follow', 'keep going: print one compact JSON envelope per line')
    .option('--hub <name>', 'a registered hub')
    .action(lazyAction(io, () => import('../actions/events-watch'), 'watch'))

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
    .action(lazyAction(io, actions, 'append'))

  events
    .command('ack')
    .description('acknowledge an event with a new event.ack (the target is never changed)')
    .argument('<event_id>', 'the event to acknowledge')
    .requiredOption('--from-agent <agent>', 'your agent id')
    .option('--status <status>', 'claimed, applied, failed, blocked or superseded')
    .option('--body <text>', 'evidence (verbatim)')
    .option('--topic <topic>', "default: the target's topic")
    .option('--hub <name>', 'a registered hub')
    .action(lazyAction(io, actions, 'ack'))
}
