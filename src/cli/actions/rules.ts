/** `muster rules` and `muster rules install` at work (local files only: no service, no hub). */
import type { Command } from 'commander'
import { installRules, installTarget, renderRules } from '../../core/rules'
import { globals } from '../context'
import { CliError, printJson, type CliIo } from '../output'

/** `rules --agent ID`: prints the block. */
export async function print(io: CliIo, opts: { agent?: string }, cmd: Command): Promise<void> {
  if (!opts.agent) throw new CliError("required option '--agent <id>' not specified")
  const block = await renderRules(opts.agent)
  if (globals(cmd).json) return printJson(io, { agent: opts.agent, block })
  io.stdout(`${block}\n`)
}

/** `rules install --agent ID (--harness H | --file F)`. */
export async function install(io: CliIo, opts: { harness?: string; file?: string }, cmd: Command): Promise<void> {
  const agent = (cmd.optsWithGlobals() as { agent?: string }).agent
  if (!agent) throw new CliError("required option '--agent <id>' not specified")
  const file = installTarget({ harness: opts.harness, file: opts.file, home: io.env.HOME || undefined, cwd: io.cwd })
  const r = await installRules(agent, file, undefined, io.env.HOME || undefined)
  if (globals(cmd).json) return printJson(io, { agent, ...r })
  io.stdout(`${r.outcome === 'unchanged' ? 'already up to date' : r.outcome}: ${r.file}\n`)
  if (r.outcome !== 'unchanged')
    io.stdout(
      'Allowlist the hub tools (event append and ack, patch submit) and the watch command in this harness, or every ack waits on an approval prompt.\n'
    )
}
