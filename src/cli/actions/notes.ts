/** `muster notes list|write|promote` at work. */
import type { Command } from 'commander'
import { globals, withService } from '../context'
import { count, printJson, type CliIo } from '../output'

const short = (sha: string) => sha.slice(0, 12)

/** `notes list --project P [--ref R]`. */
export async function list(io: CliIo, opts: { project: string; ref?: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('notes.list', { project: opts.project, ref: opts.ref }))
  if (globals(cmd).json) return printJson(io, r)
  if (!r.repo) return io.stdout(`${r.project}: no notes to read (${r.problem})\n`)
  for (const c of r.commits) {
    io.stdout(`${short(c.sha)}  ${c.subject ?? '(commit not in this repository)'}${c.merged ? '' : '  [not merged]'}\n`)
    for (const b of c.bodies) {
      io.stdout(`  ${b.ref}  ${b.shape}, ${count(b.notes.length, 'note')}\n`)
      for (const n of b.notes) {
        const flags = [n.promote ? 'promote' : '', n.archive ? 'archive' : ''].filter(Boolean).join(',')
        io.stdout(`    ${n.timestamp ?? '?'}  ${n.agent ?? '?'}  ${n.type ?? '?'}  ${n.summary}${flags ? `  [${flags}]` : ''}\n`)
      }
    }
  }
  for (const f of r.findings) io.stdout(`${f.level === 'error' ? '✗' : '!'} ${f.message} [${f.code}]\n`)
  io.stdout(
    `${count(r.counts.notes, 'note')} on ${count(r.counts.commits, 'commit')} in ${count(r.refs.length, 'ref')}; ${count(r.counts.errors, 'error')}, ${count(r.counts.warnings, 'warning')}\n`
  )
}

/** `notes write --project P --agent A --type T --content JSON [--commit C] [--ref R]`. */
export async function write(
  io: CliIo,
  opts: { project: string; agent: string; type: string; content: string; commit: string; ref?: string },
  cmd: Command
): Promise<void> {
  const r = await withService(cmd, io, (s) =>
    s.call('notes.write', {
      project: opts.project,
      agent: opts.agent,
      type: opts.type,
      content: opts.content,
      commit: opts.commit,
      ref: opts.ref
    })
  )
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`appended to ${r.ref} on ${short(r.commit)} (line ${r.note.line})\n`)
}

/** `notes promote --project P [--dry-run]`. */
export async function promote(io: CliIo, opts: { project: string; dryRun?: boolean }, cmd: Command): Promise<void> {
  const dryRun = opts.dryRun === true
  const r = await withService(cmd, io, (s) => s.call('notes.promote', { project: opts.project, dryRun }))
  if (globals(cmd).json) return printJson(io, r)
  const verb = dryRun ? 'would append' : 'appended'
  const entries = dryRun ? r.entries : r.entries.filter((e) => r.appended.includes(e.noteId))
  const archives = dryRun ? r.archives : r.archives.filter((a) => r.archived.includes(a.noteId))
  if (entries.length) {
    io.stdout(
      `${verb} ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} to ${r.decisionsFile}${r.createsDecisions ? ' (new file)' : ''}:\n`
    )
    for (const e of entries) io.stdout(`\n${e.text}`)
    io.stdout('\n')
  }
  for (const a of archives) io.stdout(`${dryRun ? 'would write' : 'wrote'} ${a.file}:\n${a.text}\n`)
  for (const s of r.skipped) io.stdout(`! skipped note ${s.noteId} in ${s.ref} on ${short(s.commit)}: ${s.reason}\n`)
  if (!entries.length && !archives.length) io.stdout('nothing to promote or archive\n')
  io.stdout(`${r.alreadyPromoted} already promoted, ${r.alreadyArchived} already archived${dryRun ? '; dry run: nothing written' : ''}\n`)
}
