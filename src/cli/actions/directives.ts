/** `muster directives`, `directive pickup` and `directive send` at work. */
import type { Command } from 'commander'
import { ApiError } from '../../shared/api-error'
import type { Directive, DirectiveState } from '../../shared/api'
import { DIRECTIVE_STATES } from '../../shared/directive-query'
import { globals, withService } from '../context'
import { printJson, table, truncate, type CliIo } from '../output'

/** Lists directives matching the flags. */
export async function list(
  io: CliIo,
  opts: { pending?: boolean; state?: string; project?: string; role?: string; target?: string; text?: string },
  cmd: Command
): Promise<void> {
  if (opts.state !== undefined && !DIRECTIVE_STATES.includes(opts.state as DirectiveState)) {
    throw new ApiError(`--state must be one of ${DIRECTIVE_STATES.join(', ')} (got '${opts.state}')`, 'invalid_input')
  }
  const state = opts.pending ? 'pending' : (opts.state as DirectiveState | undefined)
  const result = await withService(cmd, io, (s) =>
    s.call('muse.directives', { state, project: opts.project, role: opts.role, target: opts.target, text: opts.text })
  )
  if (globals(cmd).json) return printJson(io, { ...result, count: result.directives.length })
  if (result.directives.length === 0) return io.stdout('no directives\n')
  io.stdout(table([['ID', 'TARGET', 'STATE', 'WHERE', 'TITLE'], ...result.directives.map(row)]))
}

/** Picks up one directive. */
export async function pickup(io: CliIo, opts: { project: string; id: string; target: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('muse.pickup', opts))
  if (globals(cmd).json) return printJson(io, r)
  const what = {
    'picked-up': 'picked up',
    completed: 'completed (receipt was already there)',
    'already-done': 'already received: nothing written'
  }[r.outcome]
  io.stdout(`${r.id}→${r.target} ${what}\n`)
  if (r.outcome !== 'already-done') io.stdout(`  receipt: ${r.receiptFile}\n  source:  ${r.sourceFile} (✅ 已传递 ${r.at})\n`)
}

/** Sends one directive. */
export async function send(
  io: CliIo,
  opts: { project: string; from: string; to: string; title: string; body: string; id?: string; key?: string },
  cmd: Command
): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('muse.send', opts))
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`sent ${r.id}→${r.target}: ${r.file}:${r.line}\n`)
  for (const w of r.warnings) io.stdout(`  ! ${w}\n`)
}

function row(d: Directive): string[] {
  const at = d.source ?? d.receipt ?? d.occurrences[0]!
  const target = d.resolution.kind === 'unresolved' ? `${d.target} (?)` : d.target
  return [d.id, target, d.state, `${at.project}/${at.file}:${at.line}`, truncate(d.title, 50)]
}
