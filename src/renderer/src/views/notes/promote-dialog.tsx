/**
 * Promotion, always dry run first: the dialog opens on exactly what would be appended to
 * decisions.md and which research files would be written; only the button writes.
 */
import { ArrowUpFromLine, Check } from 'lucide-react'
import { usePromoteNotes } from '../../api/queries'
import { LoadingState, InlineError } from '../../components/state-views'
import { plural } from '../../lib/format'
import { useToastStore } from '../../stores/toast-store'
import { shortSha } from './notes-model'
import { CancelButton } from '../../components/cancel-button'
import { ModalDialog } from '../../components/modal-dialog'

/** The dialog for `project`; `open` drives the native `<dialog>`. */
export function PromoteDialog({ project, open, onClose }: { project: string; open: boolean; onClose: () => void }) {
  const plan = usePromoteNotes()
  const apply = usePromoteNotes()
  const toast = useToastStore((s) => s.push)
  const planFor = plan.mutate
  const resetApply = apply.reset

  const p = plan.data
  const done = apply.data
  const nothing = p && p.entries.length === 0 && p.archives.length === 0
  const run = (): void =>
    apply.mutate(
      { project, dryRun: false },
      {
        onSuccess: (r) => {
          toast(
            'info',
            `${project}: ${plural(r.appended.length, 'decision')} promoted, ${plural(r.archived.length, 'research note')} archived`
          )
          planFor({ project, dryRun: true })
        }
      }
    )

  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      onOpen={() => (resetApply(), planFor({ project, dryRun: true }))}
      title={`Promote notes · ${project}`}
      titleId="promote-title"
      className="dialog-wide promote-dialog"
      bodyClassName="dialog-stack"
      testId="promote-dialog"
    >
      {plan.isPending && <LoadingState label="Planning (dry run)…" />}
      <InlineError error={plan.error} />
      {done && (
        <p className="pd-done" role="status">
          <Check size={14} aria-hidden /> Wrote {plural(done.appended.length, 'entry', 'entries')} to <code>{done.decisionsFile}</code> and{' '}
          {plural(done.archived.length, 'archive file')}.
        </p>
      )}
      {p && (
        <>
          <p className="pd-summary" data-testid="promote-summary">
            {nothing ? 'Nothing to promote or archive.' : `Dry run: this is exactly what would be written.`}{' '}
            <span className="muted">
              {p.alreadyPromoted} already promoted · {p.alreadyArchived} already archived · notes on unmerged commits wait for their merge
            </span>
          </p>
          {p.stateBackend.branch && (
            <p className="pd-summary" data-testid="promote-state-branch">
              Squad keeps this repository&apos;s state on branch <code>{p.stateBackend.branch}</code> (stateBackend {p.stateBackend.kind}):
              Muster counts what is already there and leaves writing it to <code>squad notes promote</code>.
            </p>
          )}
          {p.entries.length > 0 && (
            <section aria-label="Entries for decisions.md">
              <h3 className="pd-h">
                Append {plural(p.entries.length, 'entry', 'entries')} to <code>{p.decisionsFile}</code>
                {p.createsDecisions && <span className="muted"> (new file)</span>}
              </h3>
              <pre className="pd-pre mono" data-testid="promote-entries">
                {p.entries.map((e) => e.text).join('\n')}
              </pre>
            </section>
          )}
          {p.archives.length > 0 && (
            <section aria-label="Research archives">
              <h3 className="pd-h">Archive {plural(p.archives.length, 'research note')} (archive_on_close, merged or not)</h3>
              <ul className="pd-files">
                {p.archives.map((a) => (
                  <li key={a.noteId}>
                    <code>{a.file}</code>{' '}
                    <span className="muted">
                      from {a.ref} on {shortSha(a.commit)}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {p.skipped.length > 0 && (
            <ul className="pd-skipped">
              {p.skipped.map((s) => (
                <li key={s.noteId} className="nl-warn">
                  Skipped a note in {s.ref} on {shortSha(s.commit)}: {s.reason}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <InlineError error={apply.error} />
      <div className="dialog-actions">
        <CancelButton onClick={onClose}>Close</CancelButton>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!p || nothing || apply.isPending || !!p.stateBackend.branch}
          onClick={run}
          data-testid="promote-apply"
        >
          <ArrowUpFromLine size={14} aria-hidden />
          {p && !nothing
            ? [p.entries.length && `Promote ${p.entries.length}`, p.archives.length && `archive ${p.archives.length}`]
                .filter(Boolean)
                .join(' · ')
            : 'Promote'}
        </button>
      </div>
    </ModalDialog>
  )
}
