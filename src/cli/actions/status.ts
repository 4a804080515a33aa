/**
 * `muster status` at work: the overview's project cards as text or JSON. The fast path of the
 * CLI: agents' hooks run it on every tool call, so it calls the core's `fleetStatusAt` (the very
 * function behind the service's `fleet.status`) without building the service, which would load
 * the contract's zod schemas, the hub and the watcher. With the parse cache warm it reads one
 * `stat` per role file and no file content.
 */
import type { Command } from 'commander'
import type { ProjectStatus } from '../../shared/api'
import { fleetStatusAt } from '../../core/fleet/fleet-status'
import { globals, homeOf } from '../context'
import { age, printJson, table, truncate, type CliIo } from '../output'

/** Prints every project's status (or `--project`'s). */
export async function status(io: CliIo, opts: { project?: string }, cmd: Command): Promise<void> {
  const projects = await fleetStatusAt(homeOf(cmd, io), opts.project)
  if (globals(cmd).json) return printJson(io, { projects, count: projects.length })
  if (projects.length === 0) return io.stdout('no projects registered (try: muster projects scan DIR, or muster demo)\n')
  io.stdout(projects.map(renderProject).join('\n'))
}

/** Human rendering of one project's status. */
export function renderProject(p: ProjectStatus): string {
  const head = `${p.name} (${p.key})  ${p.path}  ${p.exists ? `${p.roles.length} roles, last change ${age(p.lastChangeAt)}` : 'MISSING'}\n`
  const rows = p.roles.map((r) => {
    if (r.error) return [`  ${r.role}`, '', r.error, '', '']
    const lines = `${r.lines} lines${r.sizeLevel === 'ok' ? '' : r.sizeLevel === 'warning' ? ' (>500)' : ' (>800!)'}`
    if (!r.l0) return [`  ${r.role}`, '—', 'no L0', '', lines]
    const flags = r.l0.flags.length ? truncate(r.l0.flags.join(', '), 48) : ''
    return [`  ${r.role}`, r.l0.version ?? '—', truncate(r.l0.topPriority ?? '', 40), flags, lines]
  })
  const findings = p.findings.map((f) => `  ${f.level === 'error' ? '✗' : '!'} ${f.role ? f.role + ': ' : ''}${f.message}\n`).join('')
  return head + (rows.length ? table(rows) : '') + findings
}
