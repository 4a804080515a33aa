/** `muster demo` at work: creates the sample fleet through the service and prints it. */
import type { Command } from 'commander'
import { globals, homeOf, withService } from '../context'
import { printJson, type CliIo } from '../output'
import { spawnRefresh } from '../status-needs'

/** Creates and registers the demo fleet in `dir` (default `<home>/demo`). */
export async function demo(io: CliIo, dir: string | undefined, _opts: unknown, cmd: Command): Promise<void> {
  const result = await withService(cmd, io, (s) => s.call('demo.create', { dir }))
  spawnRefresh(homeOf(cmd, io)) // `muster status` gets its needs line
  if (globals(cmd).json) return printJson(io, result)
  io.stdout(`demo fleet in ${result.dir}\n`)
  for (const p of result.projects) io.stdout(`  ${p.name} (${p.key}) ${p.path}\n`)
  io.stdout(`  hub: ${result.hub}\n`)
}
