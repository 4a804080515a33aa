/** `muster projects add|list|remove|set-key|hub|scan`: the project registry. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `projects` command group. */
export function registerProjects(program: Command, io: CliIo): void {
  const actions = () => import('../actions/projects')
  const projects = program.command('projects').description('register, list, remove and discover MUSE projects')

  lazySubcommands(projects, (projects) => {
    projects
      .command('add')
      .description('register a folder that holds .muse/')
      .argument('<path>', 'project folder')
      .option('--name <name>', 'registry name (default: folder name)')
      .action(lazyAction(io, actions, 'add'))

    projects
      .command('list')
      .description('list registered projects')
      .action(lazyAction(io, actions, 'list'))

    projects
      .command('remove')
      .description('unregister a project (its files are not touched)')
      .argument('<name>', 'project name')
      .action(lazyAction(io, actions, 'remove'))

    projects
      .command('set-key')
      .description('change the key used in PROJECT/ROLE directive targets')
      .argument('<name>', 'project name')
      .argument('<key>', 'new key, like MUSE or DYA-WEB')
      .action(lazyAction(io, actions, 'setKey'))

    projects
      .command('hub')
      .description('show or mark the MUSE hub project (holder of the global strategy.md; bare ROLE targets resolve there)')
      .argument('[name]', 'project to mark as the hub')
      .option('--clear', 'forget the mark and detect the hub from paths.md / CLAUDE.md again')
      .action(lazyAction(io, actions, 'hub'))

    projects
      .command('scan')
      .description('register every folder under DIR (3 levels deep) that holds .muse/')
      .argument('<dir>', 'folder to search')
      .action(lazyAction(io, actions, 'scan'))
  })
}
