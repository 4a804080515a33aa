/** `muster hubs list|add|remove` at work. */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, table, type CliIo } from '../output'

/** `hubs list`. */
export async function list(io: CliIo, _o: unknown, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('hubs.list', {}))
  if (globals(cmd).json) return printJson(io, { ...r, count: r.hubs.length })
  const rows = r.hubs.map((h) => [h.name, h.exists ? 'ok' : 'MISSING', h.palace])
  io.stdout(rows.length ? table([['NAME', 'FILE', 'PALACE'], ...rows]) : 'no hubs registered (try: muster hubs add PALACE)\n')
  io.stdout(`default (${r.default.source}): ${r.default.palace}${r.default.exists ? '' : ' (no hub yet)'}\n`)
}

/** `hubs add PALACE`. */
export async function add(io: CliIo, palace: string, o: { name?: string; create?: boolean }, cmd: Command): Promise<void> {
  const abs = resolve(io.cwd, palace)
  const hub = await withService(cmd, io, (s) => s.call('hubs.add', { palace: abs, name: o.name, create: o.create }))
  if (globals(cmd).json) return printJson(io, hub)
  io.stdout(`${hub.added ? 'added' : 'already registered'} ${hub.name} ${hub.palace}\n`)
}

/** `hubs remove NAME`. */
export async function remove(io: CliIo, name: string, _o: unknown, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('hubs.remove', { name }))
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`removed ${r.removed}\n`)
}
