/** `muster lint` at work: prints every finding and the counts. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { printJson, type CliIo } from '../output'

/** Lints every project (or `--project`). */
export async function lint(io: CliIo, opts: { project?: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('muse.lint', { project: opts.project }))
  if (globals(cmd).json) return printJson(io, r)
  for (const f of r.findings) {
    const where = `${f.project}${f.file ? `/${f.file}` : ''}${f.line ? `:${f.line}` : ''}`
    io.stdout(`${f.level === 'error' ? '✗' : '!'} ${where}  ${f.message} [${f.code}]\n`)
  }
  io.stdout(`${r.errors} errors, ${r.warnings} warnings\n`)
}
