/**
 * Notes are not fetched by default (spec A): a remote needs the refspec `refs/notes/*:refs/notes/*`
 * (or one covering `refs/notes/squad/*`). A remote without one never brings other machines' notes.
 */
import type { NoteFinding } from '../../shared/contract/notes-types'

/** The refspec the protocol document tells every clone to add. */
export const NOTES_REFSPEC = 'refs/notes/*:refs/notes/*'

/** True when the source side of `spec` (glob `*`) matches `ref`. */
function sourceMatches(spec: string, ref: string): boolean {
  const src = spec.replace(/^\+/, '').split(':')[0] ?? ''
  const re = new RegExp(
    `^${src
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`
  )
  return re.test(ref)
}

/** True when one of `specs` fetches squad notes. */
export function fetchesSquadNotes(specs: string[]): boolean {
  return specs.some((s) => sourceMatches(s, 'refs/notes/squad/agent'))
}

/** A finding for each remote whose fetch refspecs leave squad notes behind. */
export function refspecFindings(remotes: Map<string, string[]>): NoteFinding[] {
  return [...remotes]
    .filter(([, specs]) => !fetchesSquadNotes(specs))
    .map(([name]) => ({
      level: 'warning' as const,
      code: 'refspec-missing' as const,
      ref: null,
      commit: null,
      line: null,
      noteId: null,
      message: `notes from ${name} are not fetched (no refs/notes/* refspec): git config --add remote.${name}.fetch '${NOTES_REFSPEC}' && git fetch ${name} '${NOTES_REFSPEC}'`
    }))
}
