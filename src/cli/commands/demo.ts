/** `muster demo [DIR]`: create and register a realistic sample fleet. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, type CliIo } from '../output'

/** Registers the `demo` command. */
export function registerDemo(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('create a sample fleet (projects, role files, git repos, a hub) and register it')
    .argument('[dir]', 'where to create it (default: <home>/demo)')
    .action(async (dir: string | undefined, _opts: unknown, cmd: Command) => {
      const result = await withService(cmd, io, (s) => s.call('demo.create', { dir }))
      if (globals(cmd).json) return printJson(io, result)
      io.stdout(`demo fleet in ${result.dir}\n`)
      for (const p of result.projects) io.stdout(`  ${p.name} (${p.key}) ${p.path}\n`)
      io.stdout(`  hub: ${result.hub}\n`)
    })
}
