/** `muster projects add|list|remove|scan`: the project registry. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, table, type CliIo } from '../output'

/** Registers the `projects` command group. */
export function registerProjects(program: Command, io: CliIo): void {
  const projects = program.command('projects').description('register, list, remove and discover MUSE projects')

  projects
    .command('add')
    .description('register a folder that holds .muse/')
    .argument('<path>', 'project folder')
    .option('--name <name>', 'registry name (default: folder name)')
    .action(async (path: string, opts: { name?: string }, cmd: Command) => {
      const project = await withService(cmd, io, (s) => s.call('projects.add', { path, name: opts.name }))
      if (globals(cmd).json) printJson(io, project)
      else io.stdout(`added ${project.name} (${project.key}) ${project.path}\n`)
    })

  projects
    .command('list')
    .description('list registered projects')
    .action(async (_opts: unknown, cmd: Command) => {
      const list = await withService(cmd, io, (s) => s.call('projects.list', {}))
      if (globals(cmd).json) return printJson(io, { projects: list, count: list.length })
      if (list.length === 0) return io.stdout('no projects registered (try: muster projects scan DIR, or muster demo)\n')
      io.stdout(table([['NAME', 'KEY', 'PATH'], ...list.map((p) => [p.name, p.key, p.path])]))
    })

  projects
    .command('remove')
    .description('unregister a project (its files are not touched)')
    .argument('<name>', 'project name')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const result = await withService(cmd, io, (s) => s.call('projects.remove', { name }))
      if (globals(cmd).json) printJson(io, result)
      else io.stdout(`removed ${result.removed}\n`)
    })

  projects
    .command('set-key')
    .description('change the key used in PROJECT/ROLE directive targets')
    .argument('<name>', 'project name')
    .argument('<key>', 'new key, like MUSE or DYA-WEB')
    .action(async (name: string, key: string, _opts: unknown, cmd: Command) => {
      const project = await withService(cmd, io, (s) => s.call('projects.setKey', { name, key }))
      if (globals(cmd).json) printJson(io, project)
      else io.stdout(`${project.name} now has key ${project.key}\n`)
    })

  projects
    .command('hub')
    .description('show or mark the MUSE hub project (holder of the global strategy.md; bare ROLE targets resolve there)')
    .argument('[name]', 'project to mark as the hub')
    .option('--clear', 'forget the mark and detect the hub from paths.md / CLAUDE.md again')
    .action(async (name: string | undefined, opts: { clear?: boolean }, cmd: Command) => {
      const hub = await withService(cmd, io, (s) =>
        name || opts.clear ? s.call('muse.setHub', { project: opts.clear ? null : name! }) : s.call('muse.hub', {})
      )
      if (globals(cmd).json) return printJson(io, hub)
      io.stdout(hub.project ? `hub project: ${hub.project} (${hub.source})\n` : 'no hub project: bare ROLE targets cannot be resolved\n')
    })

  projects
    .command('scan')
    .description('register every folder under DIR (3 levels deep) that holds .muse/')
    .argument('<dir>', 'folder to search')
    .action(async (dir: string, _opts: unknown, cmd: Command) => {
      const result = await withService(cmd, io, (s) => s.call('projects.scan', { dir }))
      if (globals(cmd).json) return printJson(io, result)
      for (const p of result.added) io.stdout(`added ${p.name} (${p.key}) ${p.path}\n`)
      for (const s of result.skipped) io.stdout(`skipped ${s.path}: ${s.reason}\n`)
      if (result.added.length + result.skipped.length === 0) io.stdout(`no folder with .muse/ found under ${dir}\n`)
    })
}
