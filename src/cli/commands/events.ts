/**
 * `muster events list|wait|watch|append|ack`: a twin of `mempalace logstream` (upstream
 * cli/parser.py and cli/cmd_coord.py): the same flags and defaults, the same `--json` documents
 * and human lines, the same exit codes (validation errors 1, usage errors 2; wait 2 on timeout;
 * watch 0 match, 2 idle, 130 interrupted). Muster adds `--hub NAME|URL` everywhere, and `--text`
 * and `--preview` on list/wait.
 */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'
import { argparseStyle, choiceFlag, pyIntFlag } from '../usage'
import { addFilterFlags, addWatchFilterFlags, collect } from './hub-flags'

/** Registers the `events` command group. */
export function registerEvents(program: Command, io: CliIo): void {
  const actions = () => import('../actions/events')
  const events = argparseStyle(program.command('events').description('read and write the MemPalace hub event stream (logstream)'))

  lazySubcommands(events, (events) => {
    const withFilters = (cmd: Command): Command =>
      addFilterFlags(cmd)
        .option('--since-event-id <id>', 'only events strictly after this id')
        .option('--since-created-at <ts>', 'only events at/after this time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)')
        .option('--hub <name>', 'a registered hub (Muster)')
        .option('--text <text>', 'only events whose body contains this text (Muster)')
        .option('--preview', 'cut bodies to 200 characters (Muster)')

    withFilters(events.command('list').description('list events'))
      .option('--before-event-id <id>', 'only events strictly before this id in append order')
      .option('--order <order>', 'asc (oldest first, default) or desc (newest first)', choiceFlag('asc', 'desc'), 'asc')
      .option('--limit <n>', 'max events (default 50, at most 500)', pyIntFlag, 50)
      .action(lazyAction(io, actions, 'list'))

    withFilters(events.command('wait').description('block until a matching event exists (exit 2 on timeout)'))
      .option('--timeout-ms <ms>', 'how long to wait in ms (default 60000, max 300000)', pyIntFlag, 60000)
      .option('--limit <n>', 'max events to return on match (default 50)', pyIntFlag, 50)
      .action(lazyAction(io, actions, 'wait'))

    addWatchFilterFlags(
      events
        .command('watch')
        .description('background watcher: block until interesting events arrive, then wake (exit 2 on idle)')
        .option(
          '--agent <id>',
          'your identity: --to-agent ID --exclude-from-agent ID (wake for what is addressed to you, never for your own events)'
        )
    )
      .option('--exclude-from-agent <id>', 'never wake for events written by this agent (repeatable)', collect)
      .option('--since-event-id <id>', 'start strictly after this event id (overrides --state-file)')
      .option(
        '--state-file <file>',
        "persist the cursor here (default with --agent: ~/.mempalace/watch/<agent>.json, '_' doubled, ':' '/' '\\' as '_'; '' for none)"
      )
      .option('--from-start', 'replay the log from the beginning when there is no cursor (default: start at the tip)')
      .option('--follow', 'keep watching after a match instead of exiting on the first one')
      .option('--idle-exit-ms <ms>', 'give up after this long with no match (0 = wait forever, the default)', pyIntFlag, 0)
      .option('--poll-timeout-ms <ms>', 'long-poll length per iteration (default 300000, the server maximum)', pyIntFlag, 300000)
      .option('--limit <n>', 'max events per poll (default 50)', pyIntFlag, 50)
      .option('--hub <name>', 'a registered hub (Muster)')
      .action(lazyAction(io, () => import('../actions/events-watch'), 'watch'))

    events
      .command('append')
      .description('append a coordination event')
      .requiredOption('--type <type>', 'event type, e.g. task.request')
      .requiredOption('--stream <stream>', 'stream, e.g. project/mempalace')
      .requiredOption('--room <room>', 'room, e.g. delegation')
      .option('--topic <topic>', 'topic name, e.g. auth-v2')
      .requiredOption('--from-agent <agent>', 'writer agent identity')
      .option('--to-agent <agent>', "target agent or '*'")
      .option('--correlation-id <id>', 'task/conversation id')
      .option('--branch <branch>', 'git branch')
      .option('--base-commit <sha>', 'git commit work started from')
      .option('--status <status>', 'open|claimed|ready|applied|blocked|failed|superseded')
      .option('--body <text>', 'verbatim body text')
      .option('--body-file <file>', "read body from file ('-' for stdin)")
      .option('--metadata <json>', 'extra fields as a JSON object')
      .option('--artifact-id <id>', 'reference an already-stored artifact (repeatable)', collect)
      .option('--hub <name>', 'a registered hub (Muster)')
      .action(lazyAction(io, actions, 'append'))

    events
      .command('ack')
      .description('acknowledge an event (appends event.ack, never mutates)')
      .argument('<event_id>', 'event id to acknowledge')
      .requiredOption('--from-agent <agent>', 'acknowledging agent identity')
      .option('--status <status>', 'open|claimed|ready|applied|blocked|failed|superseded')
      .option('--topic <topic>', "topic override (defaults to target event's topic)")
      .option('--body <text>', 'verbatim ack notes')
      .option('--hub <name>', 'a registered hub (Muster)')
      .action(lazyAction(io, actions, 'ack'))
  })
}
