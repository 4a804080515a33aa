/** `muster roles` and `muster role` at work. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, table, truncate, type CliIo } from '../output'

/** `roles --project P`: one row per role file. */
export async function roles(io: CliIo, opts: { project: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('muse.roles', { project: opts.project }))
  if (globals(cmd).json) return printJson(io, { ...r, count: r.roles.length })
  if (r.roles.length === 0) return io.stdout(`no role files in ${r.project}/.muse/\n`)
  const rows = r.roles.map((x) => [
    x.role,
    `${x.lines}`,
    `${x.pendingDirectives}`,
    todoFigure(x.doneTodos, x.openTodos),
    x.l0 ? truncate(x.l0.body, 60) : 'no L0'
  ])
  io.stdout(table([['ROLE', 'LINES', '🟡', 'TODO DONE', 'L0'], ...rows]))
}

/** TODO progress as the screens show it: done of total ("3/5"), "-" with no items. */
function todoFigure(done: number, open: number): string {
  return done + open ? `${done}/${done + open}` : '-'
}

/** `role --project P ROLE`: outline, TODO progress, directives and notices of one file. */
export async function role(io: CliIo, name: string, opts: { project: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('muse.role', { project: opts.project, role: name }))
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`${r.project}/.muse/${r.file}  ${r.lines} lines  ${r.l0 ? `L0: ${truncate(r.l0.body, 70)}` : 'no L0'}\n`)
  io.stdout(`TODO: ${todoFigure(r.todos.done, r.todos.open)} done (${r.todos.open} open)\n`)
  for (const g of r.todos.groups) io.stdout(`  ${g.group ?? '(top)'}: ${todoFigure(g.done, g.open)} done (${g.open} open)\n`)
  io.stdout('Sections:\n')
  for (const s of r.sections)
    io.stdout(
      `  ${String(s.line).padStart(5)}  ${'  '.repeat(s.level - 1)}${truncate(s.title, 60)}${s.kind === 'other' ? '' : `  [${s.kind}]`}\n`
    )
  if (r.directives.length) io.stdout('Directives:\n')
  for (const d of r.directives)
    io.stdout(
      `  ${String(d.line).padStart(5)}  ${d.id}→${d.target || d.role.toUpperCase()}  ${d.mark === 'pending' ? '🟡' : d.mark === 'done' ? '✅' : '·'}  ${truncate(d.title, 50)}\n`
    )
  if (r.notices.length) io.stdout('Notices:\n')
  for (const n of r.notices)
    io.stdout(
      `  ${String(n.line).padStart(5)}  ${n.from}→${n.to} (${n.date})  ${n.mark === 'pending' ? '🟡' : n.mark === 'done' ? '✅' : '·'}  ${truncate(n.title, 50)}\n`
    )
}
