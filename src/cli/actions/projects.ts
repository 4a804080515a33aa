/** `muster projects ...` at work: every subcommand is one registry call through the service. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, table, type CliIo } from '../output'

/** `projects add PATH`. */
export async function add(io: CliIo, path: string, opts: { name?: string }, cmd: Command): Promise<void> {
  const project = await withService(cmd, io, (s) => s.call('projects.add', { path, name: opts.name }))
  if (globals(cmd).json) printJson(io, project)
  else io.stdout(`added ${project.name} (${project.key}) ${project.path}\n`)
}

/** `projects list`. */
export async function list(io: CliIo, _opts: unknown, cmd: Command): Promise<void> {
  const projects = await withService(cmd, io, (s) => s.call('projects.list', {}))
  if (globals(cmd).json) return printJson(io, { projects, count: projects.length })
  if (projects.length === 0) return io.stdout('no projects registered (try: muster projects scan DIR, or muster demo)\n')
  io.stdout(table([['NAME', 'KEY', 'PATH'], ...projects.map((p) => [p.name, p.key, p.path])]))
}

/** `projects remove NAME`. */
export async function remove(io: CliIo, name: string, _opts: unknown, cmd: Command): Promise<void> {
  const result = await withService(cmd, io, (s) => s.call('projects.remove', { name }))
  if (globals(cmd).json) printJson(io, result)
  else io.stdout(`removed ${result.removed}\n`)
}

/** `projects set-key NAME KEY`. */
export async function setKey(io: CliIo, name: string, key: string, _opts: unknown, cmd: Command): Promise<void> {
  const project = await withService(cmd, io, (s) => s.call('projects.setKey', { name, key }))
  if (globals(cmd).json) printJson(io, project)
  else io.stdout(`${project.name} now has key ${project.key}\n`)
}

/** `projects hub [NAME] [--clear]`. */
export async function hub(io: CliIo, name: string | undefined, opts: { clear?: boolean }, cmd: Command): Promise<void> {
  const result = await withService(cmd, io, (s) =>
    name || opts.clear ? s.call('muse.setHub', { project: opts.clear ? null : name! }) : s.call('muse.hub', {})
  )
  if (globals(cmd).json) return printJson(io, result)
  io.stdout(
    result.project ? `hub project: ${result.project} (${result.source})\n` : 'no hub project: bare ROLE targets cannot be resolved\n'
  )
}

/** `projects scan DIR`. */
export async function scan(io: CliIo, dir: string, _opts: unknown, cmd: Command): Promise<void> {
  const result = await withService(cmd, io, (s) => s.call('projects.scan', { dir }))
  if (globals(cmd).json) return printJson(io, result)
  for (const p of result.added) io.stdout(`added ${p.name} (${p.key}) ${p.path}\n`)
  for (const s of result.skipped) io.stdout(`skipped ${s.path}: ${s.reason}\n`)
  if (result.added.length + result.skipped.length === 0) io.stdout(`no folder with .muse/ found under ${dir}\n`)
}
