/**
 * Plumbing shared by the hub commands (`events`, `thread`, `task`, `hubs`): choosing the hub
 * (`--hub NAME`, global `--palace P`, else MemPalace's resolution), repeatable filter flags, and
 * printing events. Every command reaches the hub through the core's hub service, like the UI.
 */
import type { Command } from 'commander'
import type { HubEventEnvelope } from '../../shared/api'
import type { HubSelection, HubService } from '../../core/hub/hub-service'
import { resolvePalace } from '../../core/hub/locate'
import { openHubService } from '../../core/hub/standalone'
import { globals, homeOf } from '../context'
import { truncate, type CliIo } from '../output'

/** Ends a command with an exit code and no error message (watch/wait timeouts, interrupts). */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`)
    this.name = 'CliExit'
  }
}

/** Commander collector for repeatable flags. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

/** Parses a non-negative integer flag. */
export function intFlag(name: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v.trim())) throw new Error(`${name} must be a non-negative integer, got '${v}'`)
    return Number(v)
  }
}

/** The repeatable filter flags of list/wait/watch (values of one flag OR together). */
export const FILTER_FLAGS = [
  ['stream', 'stream'], ['room', 'room'], ['topic', 'topic'], ['type', 'type'], ['to-agent', 'to_agent'],
  ['from-agent', 'from_agent'], ['correlation-id', 'correlation_id'], ['status', 'status']
] as const

/** Adds the filter flags to a command. */
export function addFilterFlags(cmd: Command): Command {
  for (const [flag] of FILTER_FLAGS) cmd.option(`--${flag} <value>`, `filter by ${flag.replace('-', ' ')} (repeat = OR)`, collect)
  return cmd
}

/** Snake-case filters from parsed flags. */
export function filtersFrom(opts: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [flag, key] of FILTER_FLAGS) {
    const camel = flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())
    const v = opts[camel] as string[] | undefined
    if (v?.length) out[key] = v
  }
  return out
}

/** Options every hub command reads. */
export interface HubCliOptions {
  hub?: string
}

/** The hub this invocation addresses: `--hub NAME`, else the palace (`--palace`, env, config, default). */
export function cliSelection(cmd: Command, io: CliIo): HubSelection {
  const { hub } = cmd.opts() as HubCliOptions
  if (hub) {
    if (/^https?:\/\//.test(hub)) throw new Error('remote hubs (--hub URL) are not supported by this command yet: use --palace')
    return { hub }
  }
  const palaceFlag = (globals(cmd) as { palace?: string }).palace
  return { palace: resolvePalace(palaceFlag, io.env, io.cwd).palace }
}

/** Runs `fn` with the hub service and the addressed hub, then closes them. */
export async function withHub<T>(cmd: Command, io: CliIo, fn: (hubs: HubService, sel: HubSelection) => Promise<T>): Promise<T> {
  const sel = cliSelection(cmd, io)
  const service = openHubService(homeOf(cmd, io), io.env)
  try {
    return await fn(service.hubs, sel)
  } finally {
    await service.close()
  }
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
