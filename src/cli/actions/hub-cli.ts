/**
 * Plumbing shared by the hub command actions (`events`, `thread`, `task`): choosing the hub
 * (`--hub NAME`, global `--palace P`, else MemPalace's resolution) and printing events. Every
 * command reaches the hub through the core's hub service, like the UI.
 */
import type { Command } from 'commander'
import type { HubEventEnvelope } from '../../shared/api'
import { type HubSelection, type HubService, resolvePalace, isHubUrl } from '../../core/hub'
import { globals, withRoot } from '../context'
import { truncate, type CliIo } from '../output'

/** Options every hub command reads. */
export interface HubCliOptions {
  hub?: string
}

/**
 * The hub this invocation addresses: `--hub NAME` (or a server's URL), else `--palace`, else none
 * named: the hub service then takes the default (`chooseHub`: the hub registered first, else
 * MemPalace's palace from the environment or config, else `~/.mempalace/palace`).
 */
export function cliSelection(cmd: Command, io: CliIo): HubSelection {
  const { hub } = cmd.opts() as HubCliOptions
  // A registered hub server may be named by its URL too (`--hub http://host:8765`).
  if (hub) return isHubUrl(hub) ? { palace: hub } : { hub }
  const palaceFlag = (globals(cmd) as { palace?: string }).palace
  if (palaceFlag && isHubUrl(palaceFlag)) return { palace: palaceFlag }
  return palaceFlag ? { palace: resolvePalace(palaceFlag, io.env, io.cwd).palace } : {}
}

/** Runs `fn` with the root's hub service (nothing else is built) and the addressed hub, then closes them. */
export async function withHub<T>(cmd: Command, io: CliIo, fn: (hubs: HubService, sel: HubSelection) => Promise<T>): Promise<T> {
  const sel = cliSelection(cmd, io)
  return withRoot(cmd, io, async (root) => fn(await root.get('hubs'), sel))
}

/**
 * `withHub` for the reads of the `mempalace` twins (events list/wait/watch, artifact get): a palace
 * folder named with `--palace` that has no hub file gets one and the command answers (list 0
 * events, wait/watch time out), as upstream does. Without `--palace` a read creates nothing: no hub
 * is an error that says which hubs exist and how to pick one.
 */
export function withUpstreamHub<T>(cmd: Command, io: CliIo, fn: (hubs: HubService, sel: HubSelection) => Promise<T>): Promise<T> {
  return withHub(cmd, io, async (hubs, sel) => {
    if (sel.palace && !sel.hub) await hubs.ensureHub(sel)
    return fn(hubs, sel)
  })
}

/** One human line per event: seq, time, type/status, from -> to, correlation, body preview. */
export function eventLine(e: HubEventEnvelope): string {
  const status = e.status ? `/${e.status}` : ''
  const corr = e.correlation_id ? ` [${e.correlation_id}]` : ''
  const body = e.body.replace(/\s+/g, ' ').trim()
  return `${e.seq}  ${e.created_at}  ${e.id}  ${e.type}${status}  ${e.from_agent} -> ${e.to_agent ?? '-'}${corr}  ${truncate(body, 80)}\n`
}

/** Prints events as human lines (or a note when there are none). */
export function printEventLines(io: CliIo, events: HubEventEnvelope[], empty = 'no events\n'): void {
  if (events.length === 0) io.stdout(empty)
  for (const e of events) io.stdout(eventLine(e))
}
