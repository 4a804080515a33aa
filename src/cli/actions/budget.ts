/** `muster budget` at work: budgets through the service, signed with this home's operator key. */
import type { Command } from 'commander'
import type { Budget } from '../../shared/api'
import { fullTokens, usd } from '../../shared/usage/format'
import { globals, withService } from '../context'
import { CliError, printJson, table, truncate, type CliIo } from '../output'

/** A positive number from a flag, or a usage error. */
function amount(flag: string, raw: string, whole: boolean): number {
  const v = Number(raw.replace(/[_,]/g, ''))
  if (!raw.trim() || !Number.isFinite(v) || v <= 0 || (whole && !Number.isSafeInteger(v)))
    throw new CliError(`${flag} '${raw}' is not ${whole ? 'a whole number of tokens above 0' : 'an amount of dollars above 0'}`, 2)
  return v
}

/** One budget on one line. */
function line(b: Budget): string {
  const used =
    b.tokens !== null ? `${fullTokens(b.used.total)} of ${fullTokens(b.tokens)} tokens` : `${usd(b.used.usd)} of ${usd(b.usd)} (estimate)`
  const state = !b.trusted ? `NOT SIGNED (${b.untrusted_reason}): gates nothing` : b.crossed ? 'CROSSED' : 'within'
  return `#${b.id} ${b.label}: ${used}, ${state}`
}

/** `budget set`. */
export async function set(
  io: CliIo,
  o: { session?: string; agent?: string; project?: string; day?: boolean; tokens?: string; usd?: string },
  cmd: Command
): Promise<void> {
  const scopes = [
    o.session !== undefined && 'session',
    o.agent !== undefined && 'agent',
    o.project !== undefined && 'project',
    o.day && 'day'
  ].filter((x): x is 'session' | 'agent' | 'project' | 'day' => !!x)
  if (scopes.length !== 1) throw new CliError('give one of --session ID, --agent A, --project P or --day', 2)
  if ((o.tokens === undefined) === (o.usd === undefined)) throw new CliError('give --tokens N or --usd X (one of them)', 2)
  const scope = scopes[0]!
  const target = scope === 'session' ? o.session! : scope === 'agent' ? o.agent! : scope === 'project' ? o.project! : ''
  const b = await withService(cmd, io, (s) =>
    s.call('budget.set', {
      scope,
      ...(scope === 'day' ? {} : { target }),
      ...(o.tokens !== undefined ? { tokens: amount('--tokens', o.tokens, true) } : { usd: amount('--usd', o.usd!, false) })
    })
  )
  if (globals(cmd).json) return printJson(io, b)
  io.stdout(`${line(b)}\n`)
}

/** `budget list`. */
export async function list(io: CliIo, _o: unknown, cmd: Command): Promise<void> {
  const { budgets } = await withService(cmd, io, (s) => s.call('budget.list', {}))
  if (globals(cmd).json) return printJson(io, { budgets })
  if (!budgets.length) return io.stdout('no budgets (muster budget set --help)\n')
  const rows = budgets.map((b) => [
    `#${b.id}`,
    truncate(b.label, 48),
    b.tokens !== null ? fullTokens(b.used.total) : usd(b.used.usd),
    !b.trusted ? `not signed: ${b.untrusted_reason}` : b.crossed ? 'CROSSED' : 'within',
    b.held.map((h) => `${h.session_id.slice(0, 8)}${h.released ? ' (let go on)' : ''}`).join(', ') || '-'
  ])
  io.stdout(table([['ID', 'BUDGET', 'USED', 'STATE', 'HOLDS'], ...rows]))
}

/** A budget number from an argument. */
function idOf(raw: string): number {
  const id = Number(raw.replace(/^#/, ''))
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`'${raw}' is not a budget number (muster budget list)`, 2)
  return id
}

/** `budget remove ID`. */
export async function remove(io: CliIo, raw: string, _o: unknown, cmd: Command): Promise<void> {
  const out = await withService(cmd, io, (s) => s.call('budget.remove', { id: idOf(raw) }))
  if (globals(cmd).json) return printJson(io, out)
  io.stdout(`removed budget #${out.removed}\n`)
}

/** `budget release ID --session S`. */
export async function release(io: CliIo, raw: string, o: { session: string }, cmd: Command): Promise<void> {
  const b = await withService(cmd, io, (s) => s.call('budget.release', { id: idOf(raw), session_id: o.session }))
  if (globals(cmd).json) return printJson(io, b)
  io.stdout(`session ${o.session} may go on past budget #${b.id}\n${line(b)}\n`)
}
