/**
 * `muster events watch`: upstream `mempalace logstream watch`. `--agent X` = `--to-agent X
 * --exclude-from-agent X`; the cursor lives in `--state-file` (default
 * `~/.mempalace/watch/<sanitised agent>.json`). No cursor and no state file: start at the tip
 * (said on stderr); an empty/corrupt state replays from the start. Exit 0 match, 2 idle
 * (`--idle-exit-ms`), 130 interrupted, 1 error.
 */
import type { Command } from 'commander'
import type { HubSelection, HubService } from '../../core/hub/hub-service'
import { defaultWatchStateFile } from '../../core/hub/locate'
import { agentFilters, readWatchState, writeWatchState, type WatchFilters } from '../../core/hub/watch'
import { globals } from '../context'
import { CliExit, type CliIo } from '../output'
import { filtersFrom } from '../commands/hub-flags'
import { eventLine, withHub } from './hub-cli'

/** The watch's starting cursor and why. */
async function startCursor(hubs: HubService, sel: HubSelection, io: CliIo, since: string | undefined, stateFile: string | null): Promise<string | null> {
  if (since) return since
  const tip = async (): Promise<string | null> => {
    const t = await hubs.tip(sel)
    io.stderr(`no cursor${stateFile ? ` and no state file (${stateFile})` : ''}: starting at the tip ${t?.id ?? '(empty hub)'}; earlier events are not replayed\n`)
    return t?.id ?? null
  }
  if (!stateFile) return tip()
  const read = readWatchState(stateFile)
  if (read.kind === 'missing') return tip()
  if (read.kind === 'corrupt') {
    io.stderr(`state file ${stateFile} is unusable (${read.reason}): replaying from the start\n`)
    return null
  }
  return read.state.cursor
}

/** `events watch` (flags defined in `commands/events.ts`). */
export async function watch(io: CliIo, o: Record<string, unknown>, cmd: Command): Promise<void> {
  const agent = o.agent as string | undefined
  let filters: WatchFilters = { ...filtersFrom(o), exclude_from_agent: (o.excludeFromAgent as string[] | undefined) ?? [] }
  if (agent) filters = agentFilters(agent, filters)
  const stateFile = (o.stateFile as string | undefined) ?? (agent ? defaultWatchStateFile(agent, io.env) : null)
  const json = !!globals(cmd).json
  const follow = !!o.follow
  const ac = new AbortController()
  const onSig = (): void => ac.abort()
  process.once('SIGINT', onSig)
  try {
    const result = await withHub(cmd, io, async (hubs, sel) => {
      const cursor = await startCursor(hubs, sel, io, o.sinceEventId as string | undefined, stateFile)
      if (stateFile) writeWatchState(stateFile, cursor, agent ?? null)
      return hubs.watch(sel, {
        filters, cursor, follow, signal: ac.signal,
        idleExitMs: o.idleExitMs as number | undefined, pollMs: o.pollMs as number | undefined,
        onMatches: (events) => {
          for (const e of events) io.stdout(json || follow ? JSON.stringify(e) + '\n' : eventLine(e))
        },
        onCursor: (c) => {
          if (stateFile) writeWatchState(stateFile, c, agent ?? null)
        }
      })
    })
    if (result.outcome === 'match') {
      if (json) io.stdout(JSON.stringify({ events: result.events, count: result.events.length, cursor: result.cursor, timed_out: false }, null, 2) + '\n')
      else for (const e of result.events) io.stdout(eventLine(e))
      return
    }
    if (result.outcome === 'idle') {
      if (json && !follow) io.stdout(JSON.stringify({ events: [], count: 0, cursor: result.cursor, timed_out: true }, null, 2) + '\n')
      else io.stderr(`no matching event for ${o.idleExitMs as number} ms\n`)
      throw new CliExit(2)
    }
    throw new CliExit(130)
  } finally {
    process.off('SIGINT', onSig)
  }
}
