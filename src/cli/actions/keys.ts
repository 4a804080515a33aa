/** `muster keys` at work: local files only (no service, no hub). */
import type { Command } from 'commander'
import { OperatorKeys } from '../../core/approvals'
import { globals, homeOf } from '../context'
import { CliError, printJson, type CliIo } from '../output'
import { visible } from '../../shared/visible-text'

/** `keys`: the operator's key (made now if missing) and the trusted ones. */
export async function show(io: CliIo, _o: unknown, cmd: Command): Promise<void> {
  const keys = new OperatorKeys(homeOf(cmd, io))
  const key = keys.ensure()
  const trusted = keys.trusted()
  if (globals(cmd).json) return printJson(io, { key, storage: keys.storage(), trusted })
  io.stdout(`operator key: ${key}\nkept in:      ${keys.storage()}\n`)
  if (!trusted.length) io.stdout('trusted operator keys: none besides this one\n')
  else io.stdout(`trusted operator keys:\n${trusted.map((k) => `  ${k.key}  ${visible(k.name)}  (since ${k.added_at})\n`).join('')}`)
}

/** `keys trust KEY [--name N]`. */
export async function trust(io: CliIo, key: string, o: { name?: string }, cmd: Command): Promise<void> {
  const entry = new OperatorKeys(homeOf(cmd, io)).trust(key.trim(), o.name ?? 'operator')
  if (globals(cmd).json) return printJson(io, entry)
  io.stdout(`trusted ${entry.key} (${visible(entry.name)}); reinstall hooks (muster approve-hook install) so they trust it too\n`)
}

/** `keys untrust KEY`. */
export async function untrust(io: CliIo, key: string, _o: unknown, cmd: Command): Promise<void> {
  if (!new OperatorKeys(homeOf(cmd, io)).untrust(key.trim())) throw new CliError(`not a trusted key: ${visible(key)}`)
  if (globals(cmd).json) return printJson(io, { untrusted: key.trim() })
  io.stdout(`no longer trusted: ${key.trim()}; reinstall hooks (muster approve-hook install) so they stop trusting it\n`)
}
