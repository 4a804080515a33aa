/**
 * `muster events watch`: upstream `mempalace logstream watch` (cli/cmd_coord.py
 * `_logstream_watch`; the work is in the core's `watch-run.ts`). Prints what upstream prints: per
 * matching batch `{"events","count","cursor","timed_out": false}` (indented; one compact line per
 * batch with `--follow`) or `N event(s):` and a line per event; on the idle deadline
 * `{"events": [], ..., "timed_out": true}` or `Idle timeout; no matching events.`; notices on
 * stderr. Exit 0 after a match (also a following watch that then went idle), 2 idle with no
 * match, 130 interrupted (`Stopped.`), 1 on an error.
 */
import type { Command } from 'commander'
import type { HubEvent } from '../../shared/api'
import { globals } from '../context'
import { CliExit, type CliIo } from '../output'
import { filtersFrom } from '../commands/hub-flags'
import { printUpstreamEvents, upstreamJson } from '../upstream-output'
import { withUpstreamHub } from './hub-cli'

/** The parsed flags of `watch`. */
interface WatchFlags extends Record<string, unknown> {
  agent?: string
  excludeFromAgent?: string[]
  sinceEventId?: string
  stateFile?: string
  fromStart?: boolean
  follow?: boolean
  idleExitMs: number
  pollTimeoutMs: number
  limit: number
}

/** `events watch` (flags defined in `commands/events.ts`). */
export async function watch(io: CliIo, o: WatchFlags, cmd: Command): Promise<void> {
  const json = !!globals(cmd).json
  const follow = !!o.follow
  const ac = new AbortController()
  const onSig = (): void => ac.abort()
  process.once('SIGINT', onSig)
  const envelope = (events: HubEvent[], cursor: string | null, timedOut: boolean): string =>
    upstreamJson({ events, count: events.length, cursor, timed_out: timedOut }, follow)
  try {
    const result = await withUpstreamHub(cmd, io, (hubs, sel) =>
      hubs.watch(sel, {
        filters: { ...filtersFrom(o), ...(o.excludeFromAgent ? { exclude_from_agent: o.excludeFromAgent } : {}) },
        agent: o.agent,
        stateFile: o.stateFile,
        sinceEventId: o.sinceEventId,
        fromStart: !!o.fromStart,
        follow,
        idleExitMs: o.idleExitMs,
        pollTimeoutMs: o.pollTimeoutMs,
        limit: o.limit,
        signal: ac.signal,
        onNotice: (n) => {
          if (n.kind !== 'watching' || !json) io.stderr(n.text + '\n')
        },
        onMatches: (events, cursor) => {
          if (json) io.stdout(envelope(events, cursor, false))
          else printUpstreamEvents(io, events)
        }
      })
    )
    if (result.outcome === 'match') return
    if (result.outcome === 'idle') {
      io.stdout(json ? envelope([], result.cursor, true) : 'Idle timeout; no matching events.\n')
      if (result.matchedAny) return
      throw new CliExit(2)
    }
    if (!json) io.stderr('Stopped.\n')
    throw new CliExit(130)
  } finally {
    process.off('SIGINT', onSig)
  }
}
