/** `muster lint`: L0, size, target and footer checks of the MUSE role files. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, type CliIo } from '../output'

/** Registers the `lint` command (a report: exit 0 whatever it finds; counts are in the output). */
export function registerLint(program: Command, io: CliIo): void {
  program
    .command('lint')
    .description('check role files: L0, size, targets, duplicates, directives after the footer')
    .option('--project <name>', 'only this project')
    .action(async (opts: { project?: string }, cmd: Command) => {
      const r = await withService(cmd, io, (s) => s.call('muse.lint', { project: opts.project }))
      if (globals(cmd).json) printJson(io, r)
      else {
        for (const f of r.findings) {
          const where = `${f.project}${f.file ? `/${f.file}` : ''}${f.line ? `:${f.line}` : ''}`
          io.stdout(`${f.level === 'error' ? '✗' : '!'} ${where}  ${f.message} [${f.code}]\n`)
        }
        io.stdout(`${r.errors} errors, ${r.warnings} warnings\n`)
      }
    })
}
