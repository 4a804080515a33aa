/** `muster keys` at work: the key files, and the trust ledger for a revocation (no service, no hub). */
import type { Command } from 'commander'
import { OperatorKeys } from '../../core/approvals'
import { globals, homeOf, withRoot } from '../context'
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

/** `keys trust KEY [--name N]`: refused for a key the trust ledger revoked (it never counts again). */
export async function trust(io: CliIo, key: string, o: { name?: string }, cmd: Command): Promise<void> {
  const id = key.trim()
  const ledger = await withRoot(cmd, io, async (root) => (await root.get('rules')).checkLedger())
  const withdrawn = ledger.ok ? [...ledger.state.revoked, ...ledger.state.rotations.map(([from]) => from)] : []
  if (withdrawn.includes(id))
    throw new CliError(`${visible(id)} was revoked in this home's trust ledger: a revoked key never counts again (ask for a new key)`)
  const entry = new OperatorKeys(homeOf(cmd, io)).trust(id, o.name ?? 'operator')
  if (globals(cmd).json) return printJson(io, entry)
  io.stdout(`trusted ${entry.key} (${visible(entry.name)}); reinstall hooks (muster approve-hook install) so they trust it too\n`)
}

/**
 * `keys untrust KEY`: a revocation in the trust ledger, signed with this home's key, so every hook
 * of this home stops trusting the key at once (one installed with it in `--operator-keys` too).
 */
export async function untrust(io: CliIo, key: string, _o: unknown, cmd: Command): Promise<void> {
  const id = key.trim()
  const keys = new OperatorKeys(homeOf(cmd, io))
  if (!keys.trusted().some((k) => k.key === id)) throw new CliError(`not a trusted key: ${visible(key)}`)
  await withRoot(cmd, io, async (root) => {
    const rules = await root.get('rules')
    rules.appendTrust({ op: 'key.revoke', key: id }, (await root.get('keys')).signer(), () => keys.untrust(id))
  })
  if (globals(cmd).json) return printJson(io, { untrusted: id, revoked: true })
  io.stdout(`no longer trusted: ${id}; revoked in the trust ledger, so this home's hooks stop trusting it now\n`)
}
