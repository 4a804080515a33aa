/** `muster directives` (the cross-project list) and `muster directive pickup|send`. */
import type { Command } from 'commander'
import type { Directive } from '../../shared/api'
import { globals, withService } from '../context'
import { printJson, table, truncate, type CliIo } from '../output'

const STATES = ['pending', 'received', 'delivered', 'untracked'] as const

/** Registers `directives` and the `directive` group. */
export function registerDirectives(program: Command, io: CliIo): void {
  program
    .command('directives')
    .description('list 📡 directives of every project with their target and state')
    .option('--pending', 'only directives still waiting for pickup')
    .option('--state <state>', `only this state (${STATES.join(', ')})`)
    .option('--project <name>', 'only directives written in or addressed to this project')
    .option('--role <role>', 'only directives written in or addressed to this role')
    .option('--target <target>', 'only this target (ROLE, PROJECT/ROLE or ALL)')
    .option('--text <text>', 'only directives whose title or body contains this text')
    .action(async (opts: { pending?: boolean; state?: string; project?: string; role?: string; target?: string; text?: string }, cmd: Command) => {
      const state = opts.pending ? 'pending' : (opts.state as (typeof STATES)[number] | undefined)
      const result = await withService(cmd, io, (s) => s.call('muse.directives', { state, project: opts.project, role: opts.role, target: opts.target, text: opts.text }))
      if (globals(cmd).json) return printJson(io, { ...result, count: result.directives.length })
      if (result.directives.length === 0) return io.stdout('no directives\n')
      io.stdout(table([['ID', 'TARGET', 'STATE', 'WHERE', 'TITLE'], ...result.directives.map(row)]))
    })

  const directive = program.command('directive').description('pick up or send one 📡 directive')

  directive
    .command('pickup')
    .description('mark a directive received: receipt in the target file, 🟡 -> ✅ at the source')
    .requiredOption('--project <name>', 'project whose role file holds the 🟡 directive')
    .requiredOption('--id <id>', 'directive id, like S042')
    .requiredOption('--target <target>', 'directive target, like MUSE/BUILD')
    .action(async (opts: { project: string; id: string; target: string }, cmd: Command) => {
      const r = await withService(cmd, io, (s) => s.call('muse.pickup', opts))
      if (globals(cmd).json) return printJson(io, r)
      const what = { 'picked-up': 'picked up', completed: 'completed (receipt was already there)', 'already-done': 'already received: nothing written' }[r.outcome]
      io.stdout(`${r.id}→${r.target} ${what}\n`)
      if (r.outcome !== 'already-done') io.stdout(`  receipt: ${r.receiptFile}\n  source:  ${r.sourceFile} (✅ 已传递 ${r.at})\n`)
    })

  directive
    .command('send')
    .description("write a directive into the sender's own role file")
    .requiredOption('--project <name>', 'project of the sender')
    .requiredOption('--from <role>', 'sending role (its own file gets the directive)')
    .requiredOption('--to <target>', 'target: ROLE, PROJECT/ROLE or ALL')
    .requiredOption('--title <title>', 'one-line title')
    .option('--body <text>', 'body (written as a > blockquote)', '')
    .option('--id <id>', 'directive id (default: next free S-number)')
    .action(async (opts: { project: string; from: string; to: string; title: string; body: string; id?: string }, cmd: Command) => {
      const r = await withService(cmd, io, (s) => s.call('muse.send', opts))
      if (globals(cmd).json) return printJson(io, r)
      io.stdout(`sent ${r.id}→${r.target}: ${r.file}:${r.line}\n`)
      for (const w of r.warnings) io.stdout(`  ! ${w}\n`)
    })
}

function row(d: Directive): string[] {
  const at = d.source ?? d.receipt ?? d.occurrences[0]!
  const target = d.resolution.kind === 'unresolved' ? `${d.target} (?)` : d.target
  return [d.id, target, d.state, `${at.project}/${at.file}:${at.line}`, truncate(d.title, 50)]
}
