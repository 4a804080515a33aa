/**
 * "Create task": a canonical `task.request` from the operator. The project comes from the
 * registered projects; the backend checks the base commit against that project's git repository
 * and its message shows inline.
 */
import { useState, type FormEvent } from 'react'
import { CircleAlert, ListPlus, X } from 'lucide-react'
import { hubSel, useTaskCreate } from '../../api/hub-queries'
import { useProjects } from '../../api/queries'
import { useToastStore } from '../../stores/toast-store'
import { useTimelineStore } from '../../stores/timeline-store'
import { errorMessage } from '../../lib/format'
import { Field, TextField } from '../../components/form-field'
import { OperatorLine, ReadOnlyNote, WriteButtons } from './operator-line'

/** Where the work happens: the branch and the commit it starts from (checked in the project's repository). */
const GIT_FIELDS = [
  { key: 'branch', label: 'Branch', placeholder: 'fix/cache-ttl', testId: 'task-branch' },
  { key: 'base_commit', label: 'Base commit', placeholder: '7–64 hex characters', testId: 'task-base' }
] as const

/** The create-task pane; `agents` fill the "to" suggestions. */
export function TaskForm({ hub, agents }: { hub: string | null; agents: readonly string[] }) {
  const projects = useProjects()
  const create = useTaskCreate()
  const toast = useToastStore((s) => s.push)
  const openThread = useTimelineStore((s) => s.openThread)
  const setAction = useTimelineStore((s) => s.setAction)
  const [form, setForm] = useState({ project: '', to_agent: '', goal: '', branch: '', base_commit: '', done: '' })
  const set = (k: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [k]: value }))
  const project = form.project || projects.data?.[0]?.name || ''

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    create.mutate(
      { ...hubSel(hub), ...form, project },
      {
        onSuccess: (out) => {
          toast('info', `Task requested from ${out.task.to_agent}: ${out.task.correlation_id}`)
          if (out.task.correlation_id) openThread(out.task.correlation_id)
        }
      }
    )
  }
  const close = (): void => setAction(null)

  return (
    <article className="tl-detail" data-testid="task-form-pane" aria-label="Create a task">
      <header className="tl-pane-head">
        <ListPlus size={15} aria-hidden />
        <h2>New task request</h2>
        <span className="card-spacer" />
        <button type="button" className="btn-icon" onClick={close} aria-label="Close (Esc)" title="Close (Esc)">
          <X size={15} />
        </button>
      </header>
      <form className="form tl-pane-scroll tl-task-form" onSubmit={submit} data-testid="task-form">
        <OperatorLine />
        <ReadOnlyNote hub={hub} />
        <div className="field-row">
          <Field label="Project" fieldClass="field-grow">
            {(fid) => (
              <select
                id={fid}
                className="input"
                value={project}
                onChange={(e) => set('project')(e.target.value)}
                data-testid="task-project"
                required
              >
                {projects.data?.length ? (
                  projects.data.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.name}
                    </option>
                  ))
                ) : (
                  <option value="">No registered projects</option>
                )}
              </select>
            )}
          </Field>
          <TextField
            label="To agent"
            fieldClass="field-grow"
            mono
            literal
            value={form.to_agent}
            onChange={set('to_agent')}
            suggestions={agents}
            placeholder="win-codex"
            testId="task-to"
            required
          />
        </div>
        <TextField label="Goal" rows={2} value={form.goal} onChange={set('goal')} testId="task-goal" required autoFocus />
        <div className="field-row">
          {GIT_FIELDS.map((g) => (
            <TextField
              key={g.key}
              label={g.label}
              fieldClass="field-grow"
              mono
              literal
              value={form[g.key]}
              onChange={set(g.key)}
              placeholder={g.placeholder}
              testId={g.testId}
              required
            />
          ))}
        </div>
        <TextField label="Definition of done" rows={3} value={form.done} onChange={set('done')} testId="task-done" required />
        <p className="hint">
          Written as <code>task.request</code> in <code>project/{project || '…'}</code> / <code>delegation</code>, status <code>open</code>,
          with the canonical body. The base commit is checked in the project’s repository.
        </p>
        {create.error && (
          <p className="inline-error" role="alert" data-testid="task-error">
            <CircleAlert size={14} aria-hidden />
            <span>{errorMessage(create.error)}</span>
          </p>
        )}
        <WriteButtons hub={hub} busy={create.isPending} icon={ListPlus} ready={!!project} testId="task-submit" onCancel={close}>
          Request task
        </WriteButtons>
      </form>
    </article>
  )
}
