/**
 * Plumbing shared by the hub commands (`events`, `thread`, `task`, `hubs`): choosing the hub
 * (`--hub NAME`, global `--palace P`, else MemPalace's resolution), repeatable filter flags, and
 * printing events. The commands open the hub file directly, as `mempalace logstream` does.
 */
import type { Command } from 'commander'
import { HubConnection } from '../../core/hub/hub-connection'
import { resolvePalace } from '../../core/hub/locate'
import type { ListedEvent } from '../../core/hub/reader'
import { globals, withService } from '../context'
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

/** Opens the hub this invocation addresses (close it when done). */
export async function openCliHub(cmd: Command, io: CliIo): Promise<HubConnection> {
  const { hub } = cmd.opts() as HubCliOptions
  const palaceFlag = (globals(cmd) as { palace?: string }).palace
  if (hub) {
    if (/^https?:\/\//.test(hub)) throw new Error('remote hubs (--hub URL) are not supported by this command yet: use --palace')
    const palace = await withService(cmd, io, async (s) => {
      const { hubs } = await s.call('hubs.list', {})
      const found = hubs.find((h) => h.name.toLowerCase() === hub.toLowerCase())
      if (!found) throw new Error(`unknown hub '${hub}' (see: muster hubs list)`)
      return found.palace
    })
    return new HubConnection(palace)
  }
  return new HubConnection(resolvePalace(palaceFlag, io.env, io.cwd).palace)
}

/** Runs `fn` with the addressed hub and closes it. */
export async function withHub<T>(cmd: Command, io: CliIo, fn: (conn: HubConnection) => Promise<T> | T): Promise<T> {
  const conn = await openCliHub(cmd, io)
  try {
    return await fn(conn)
  } finally {
    conn.close()
  }
}

/** One human line per event: seq, time, type/status, from -> to, correlation, body preview. */
export function eventLine(e: ListedEvent): string {
  const status = e.status ? `/${e.status}` : ''
  const corr = e.correlation_id ? ` [${e.correlation_id}]` : ''
  const body = e.body.replace(/\s+/g, ' ').trim()
  return `${e.seq}  ${e.created_at}  ${e.id}  ${e.type}${status}  ${e.from_agent} -> ${e.to_agent ?? '-'}${corr}  ${truncate(body, 80)}\n`
}

/** Prints events as human lines (or a note when there are none). */
export function printEventLines(io: CliIo, events: ListedEvent[], empty = 'no events\n'): void {
  if (events.length === 0) io.stdout(empty)
  for (const e of events) io.stdout(eventLine(e))
}
