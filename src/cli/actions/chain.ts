/** `muster chain check|findings` at work. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { CliError, CliExit, count, printJson, type CliIo } from '../output'

/** `chain check --chain C --target T [--phase N] [--caller A]`; exit 2 when blocked. */
export async function check(
  io: CliIo,
  opts: { chain: string; target: string; phase?: string; caller?: string },
  cmd: Command
): Promise<void> {
  const phase = opts.phase === undefined ? undefined : Number(opts.phase)
  if (phase !== undefined && phase !== 1 && phase !== 2 && phase !== 3) throw new CliError(`invalid --phase '${opts.phase}': use 1, 2 or 3`)
  const r = await withService(cmd, io, (s) =>
    s.call('invoke.check', { chain: opts.chain, target: opts.target, phase: phase as 1 | 2 | 3 | undefined, caller: opts.caller })
  )
  if (globals(cmd).json) printJson(io, r)
  else {
    for (const w of r.warnings) io.stderr(`muster: warning: ${w}\n`)
    const path = [...r.chain, r.target].join(' → ')
    if (r.allowed) io.stdout(`allowed: ${path}\n`)
    else io.stdout(`blocked (${r.rule}): ${r.reason}\n${r.blocked}\n${r.assumption}\n`)
  }
  // like a failed check, so scripts and hooks can branch on it; 1 stays for bad input
  if (!r.allowed) throw new CliExit(2)
}

/** `chain findings [--project P]`. */
export async function findings(io: CliIo, opts: { project?: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('invoke.findings', { project: opts.project }))
  if (globals(cmd).json) return printJson(io, r)
  for (const f of r.findings) {
    const where =
      f.source.kind === 'role'
        ? `${f.source.project}/.muse/${f.source.file}:${f.line}`
        : `${f.source.hub} ${f.source.eventId} (from ${f.source.from}) line ${f.line}`
    io.stdout(`${f.level === 'error' ? '✗' : '!'} ${where}  ${f.message} [${f.rule}]\n`)
    if (f.blocked) io.stdout(`    answer: ${f.blocked}\n`)
  }
  io.stdout(
    `${count(r.errors, 'error')}, ${count(r.warnings, 'warning')} in ${count(r.scanned.roleFiles, 'role file')} and ${count(r.scanned.events, 'tagged event')}\n`
  )
}
