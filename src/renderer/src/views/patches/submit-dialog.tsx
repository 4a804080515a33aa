/**
 * Send a project's working-tree diff to an agent as a patch (`patch.submit` with `from_worktree`,
 * like `muster patch submit --from-worktree P`): the dialog shows exactly what would be sent (files,
 * size, upstream's warnings) before the button stores it byte-exactly on the hub.
 */
import { useState } from 'react'
import { Send } from 'lucide-react'
import { useProjects } from '../../api/queries'
import { useSubmitPatch, useWorktreeDiff } from '../../api/patch-queries'
import { FilterSelect } from '../../components/filter-select'
import { Field, TextField } from '../../components/form-field'
import { InlineError, LoadingState } from '../../components/state-views'
import { useToastStore } from '../../stores/toast-store'
import { CancelButton } from '../../components/cancel-button'
import { ModalDialog } from '../../components/modal-dialog'

/** The dialog; `open` drives the native `<dialog>`, `hub` is the hub the patch goes to. */
export function SubmitDialog({ hub, open, onClose }: { hub: string | null; open: boolean; onClose: () => void }) {
  const projects = useProjects().data ?? []
  const [project, setProject] = useState('')
  const [agent, setAgent] = useState('')
  const [correlation, setCorrelation] = useState('')
  const chosen = project || projects[0]?.name || ''
  const diff = useWorktreeDiff(open ? chosen : '')
  const submit = useSubmitPatch()
  const toast = useToastStore((s) => s.push)

  const d = diff.data
  const empty = d && !d.content
  const blocked = !d
    ? 'reading the diff…'
    : (d.problem ?? (empty ? `${d.project} has no uncommitted changes` : !agent.trim() ? 'name the agent it goes to' : null))
  const send = (): void =>
    submit.mutate(
      {
        ...(hub ? { hub } : {}),
        project: chosen,
        from_worktree: true,
        to_agent: agent.trim(),
        ...(correlation.trim() ? { correlation_id: correlation.trim() } : {})
      },
      {
        onSuccess: (r) => {
          toast('info', `Sent ${chosen}'s diff to ${r.event.to_agent ?? agent.trim()} as ${r.event.id}`)
          onClose()
        }
      }
    )

  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      title="Send a worktree diff to an agent"
      titleId="submit-title"
      className="dialog-wide submit-dialog"
      bodyClassName="dialog-stack"
      testId="submit-dialog"
    >
      <div className="sd-fields">
        <Field label="Project">
          {(id) => (
            <FilterSelect id={id} value={chosen} onChange={setProject} options={projects.map((p) => p.name)} testId="submit-project" />
          )}
        </Field>
        <TextField label="To agent" literal value={agent} onChange={setAgent} placeholder="e.g. win-codex" required testId="submit-agent" />
        <TextField
          label="Correlation id"
          optional
          mono
          literal
          value={correlation}
          onChange={setCorrelation}
          placeholder="a new thread"
          testId="submit-correlation"
        />
      </div>
      {diff.isLoading && <LoadingState label="Reading the working-tree diff…" />}
      <InlineError error={diff.error} />
      {d && (
        <section aria-label="What would be sent" data-testid="submit-preview">
          <p className="sd-summary">
            {empty ? (
              <span className="muted">No uncommitted changes in {d.project}.</span>
            ) : (
              <>
                {d.files.length} file{d.files.length === 1 ? '' : 's'} · {d.size_bytes} B, exact bytes, against{' '}
                <span className="mono">{d.head ? d.head.slice(0, 12) : 'no commit'}</span>
                {d.branch && (
                  <>
                    {' '}
                    on <span className="mono">{d.branch}</span>
                  </>
                )}
              </>
            )}
          </p>
          {d.warnings.map((w) => (
            <p key={w} className="sd-warning">
              {w}
            </p>
          ))}
          {d.content && <pre className="sd-pre mono">{d.content}</pre>}
        </section>
      )}
      <InlineError error={submit.error} />
      <div className="dialog-actions">
        {blocked && d && <span className="muted send-hint">Send is disabled: {blocked}</span>}
        <CancelButton onClick={onClose} />
        <button type="button" className="btn btn-primary" disabled={!!blocked || submit.isPending} onClick={send} data-testid="submit-send">
          <Send size={14} aria-hidden /> Send to {agent.trim() || 'agent'}
        </button>
      </div>
    </ModalDialog>
  )
}
