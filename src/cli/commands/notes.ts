/** `muster notes list|write|promote`: squad git notes of a project's repository. */
import type { Command } from 'commander'
import { lazyAction, lazySubcommands } from '../lazy'
import type { CliIo } from '../output'

/** Registers the `notes` command group. */
export function registerNotes(program: Command, io: CliIo): void {
  const actions = () => import('../actions/notes')
  const notes = program.command('notes').description('squad git notes (refs/notes/squad/*): list with findings, write, promote')

  lazySubcommands(notes, (notes) => {
    notes
      .command('list')
      .description('every note per commit and agent, in all body shapes, with findings (a report: exit 0)')
      .requiredOption('--project <name>', 'project whose repository to read')
      .option('--ref <ref>', 'only this ref, e.g. squad/data')
      .action(lazyAction(io, actions, 'list'))

    notes
      .command('write')
      .description("append a note in the agent's own namespace (git notes append)")
      .requiredOption('--project <name>', 'project whose repository to write')
      .requiredOption('--agent <id>', 'the writing agent; its namespace is refs/notes/squad/<id>')
      .requiredOption('--type <type>', 'decision, research, review, progress, security, ...')
      .requiredOption('--content <json>', 'JSON: an object of note fields, or a quoted string')
      .option('--commit <rev>', 'commit to annotate', 'HEAD')
      .option('--ref <ref>', 'a shared namespace instead (the note keeps --agent as its writer): squad/research or squad/review')
      .action(lazyAction(io, actions, 'write'))

    notes
      .command('promote')
      .description('promote_to_permanent notes on merged commits to decisions.md; archive_on_close notes to research/ (merged or not)')
      .requiredOption('--project <name>', 'project whose repository to promote')
      .option('--dry-run', 'show exactly what would change; write nothing')
      .action(lazyAction(io, actions, 'promote'))
  })
}
