/** `muster hubs list|add|remove` at work. */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { readTokenFile } from '../../core/hub'
import { globals, homeOf, withService } from '../context'
import { CliError, printJson, table, type CliIo } from '../output'
import { spawnRefresh } from '../status-needs'

/** What `hubs list` shows as a hub's state: ok, missing, read-only, or offline with the reason. */
function state(h: { exists: boolean; online: boolean; offline_reason: string | null; read_only: boolean }): string {
  if (!h.exists && !h.online) return h.offline_reason && /^https?:/.test(h.offline_reason) ? `OFFLINE: ${h.offline_reason}` : 'MISSING'
  if (!h.online) return `OFFLINE: ${h.offline_reason ?? 'unknown'}`
  return h.read_only ? 'read-only' : 'ok'
}

/** `hubs list`. */
export async function list(io: CliIo, _o: unknown, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('hubs.list', {}))
  if (globals(cmd).json) return printJson(io, { ...r, count: r.hubs.length })
  const rows = r.hubs.map((h) => [h.name, h.kind, state(h), h.palace])
  io.stdout(
    rows.length
      ? table([['NAME', 'KIND', 'STATE', 'LOCATION'], ...rows])
      : 'no hubs registered (try: muster hubs add PALACE, or --url URL --token-file FILE)\n'
  )
  // the hub every command, hook and the app take when none is named, and why
  io.stdout(`default: ${r.default.reason}${r.default.exists || r.default.online ? '' : ' (no hub yet)'}\n`)
}

/**
 * `hubs add PALACE` or `hubs add --url URL [--token-file F]`. The token file is read here, in the
 * operator's shell, and its text passed to `hubs.add` (the API takes no file path).
 */
export async function add(
  io: CliIo,
  palace: string | undefined,
  o: { name?: string; create?: boolean; url?: string; tokenFile?: string },
  cmd: Command
): Promise<void> {
  if (!palace === !o.url) throw new CliError('give a palace folder or --url URL (not both)')
  if (o.tokenFile && !o.url) throw new CliError('--token-file goes with --url (a hub server)')
  const input = o.url
    ? { url: o.url, name: o.name, create: o.create, token: o.tokenFile ? readTokenFile(o.tokenFile, io.cwd, io.env.HOME) : undefined }
    : { palace: resolve(io.cwd, palace!), name: o.name, create: o.create }
  const hub = await withService(cmd, io, (s) => s.call('hubs.add', input))
  spawnRefresh(homeOf(cmd, io)) // `muster status` gets its needs line
  if (globals(cmd).json) return printJson(io, hub)
  io.stdout(`${hub.added ? 'added' : 'already registered'} ${hub.name} ${hub.palace}${hub.read_only ? ' (read-only)' : ''}\n`)
}

/** `hubs remove NAME`. */
export async function remove(io: CliIo, name: string, _o: unknown, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('hubs.remove', { name }))
  spawnRefresh(homeOf(cmd, io))
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`removed ${r.removed}\n`)
}
