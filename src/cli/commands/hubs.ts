/** `muster hubs list|add|remove`: the MemPalace hubs Muster watches. */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, table, type CliIo } from '../output'

/** Registers the `hubs` command group. */
export function registerHubs(program: Command, io: CliIo): void {
  const hubs = program.command('hubs').description('register, list and remove MemPalace hubs')

  hubs
    .command('list')
    .description('registered hubs and the MemPalace default palace')
    .action(async (_o: unknown, cmd: Command) => {
      const r = await withService(cmd, io, (s) => s.call('hubs.list', {}))
      if (globals(cmd).json) return printJson(io, { ...r, count: r.hubs.length })
      const rows = r.hubs.map((h) => [h.name, h.exists ? 'ok' : 'MISSING', h.palace])
      io.stdout(rows.length ? table([['NAME', 'FILE', 'PALACE'], ...rows]) : 'no hubs registered (try: muster hubs add PALACE)\n')
      io.stdout(`default (${r.default.source}): ${r.default.palace}${r.default.exists ? '' : ' (no hub yet)'}\n`)
    })

  hubs
    .command('add')
    .description('register a palace folder holding logstream.sqlite3 (idempotent)')
    .argument('<palace>', 'palace folder')
    .option('--name <name>', 'registry name (default: folder name)')
    .option('--create', 'create the hub if the folder has none')
    .action(async (palace: string, o: { name?: string; create?: boolean }, cmd: Command) => {
      const abs = resolve(io.cwd, palace)
      const hub = await withService(cmd, io, (s) => s.call('hubs.add', { palace: abs, name: o.name, create: o.create }))
      if (globals(cmd).json) return printJson(io, hub)
      io.stdout(`${hub.added ? 'added' : 'already registered'} ${hub.name} ${hub.palace}\n`)
    })

  hubs
    .command('remove')
    .description('unregister a hub (its file is not touched)')
    .argument('<name>', 'hub name')
    .action(async (name: string, _o: unknown, cmd: Command) => {
      const r = await withService(cmd, io, (s) => s.call('hubs.remove', { name }))
      if (globals(cmd).json) return printJson(io, r)
      io.stdout(`removed ${r.removed}\n`)
    })
}
