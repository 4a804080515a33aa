/**
 * "Create task": a canonical `task.request` from the operator. The project comes from the
 * registered projects; the backend checks the base commit against that project's git repository
 * and its message shows inline.
 */
import { useId, useState, type FormEvent } from 'react'
import { CircleAlert, ListPlus, LoaderCircle, X } from 'lucide-react'
import { hubSel, useTaskCreate, useWriteRefusal } from '../../api/hub-queries'
import { useProjects } from '../../api/queries'
import { useToastStore } from '../../stores/toast-store'
import { useTimelineStore } from '../../stores/timeline-store'
import { errorMessage } from '../../lib/format'
import { OperatorLine, ReadOnlyNote, useOperatorId } from './operator-line'

/** The create-task pane; `agents` fill the "to" suggestions. */
export function TaskForm({ hub, agents }: { hub: string | null; agents: readonly string[] }) {
  const id = useId()
  const projects = useProjects()
  const create = useTaskCreate()
  const operator = useOperatorId()
  const refusal = useWriteRefusal(hub)
  const toast = useToastStore((s) => s.push)
  const openThread = useTimelineStore((s) => s.openThread)
  const setAction = useTimelineStore((s) => s.setAction)
  const [form, setForm] = useState({ project: '', to_agent: '', goal: '', branch: '', base_commit: '', done: '' })
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }))
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
          <div className="field field-grow">
            <label htmlFor={`${id}-project`}>Project</label>
            <select id={`${id}-project`} className="input" value={project} onChange={set('project')} data-testid="task-project" required>
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
          </div>
          <div className="field field-grow">
            <label htmlFor={`${id}-to`}>To agent</label>
            <input
              id={`${id}-to`}
              className="input mono"
              value={form.to_agent}
              onChange={set('to_agent')}
              list={`${id}-agents`}
              placeholder="win-codex"
              data-testid="task-to"
              required
              spellCheck={false}
              autoComplete="off"
            />
            <datalist id={`${id}-agents`}>
              {agents.map((a) => (
                <option key={a} value={a} />
              ))}
            </datalist>
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-goal`}>Goal</label>
          <textarea
            id={`${id}-goal`}
            className="input textarea"
            rows={2}
            value={form.goal}
            onChange={set('goal')}
            data-testid="task-goal"
            required
            autoFocus
          />
        </div>
        <div className="field-row">
          <div className="field field-grow">
            <label htmlFor={`${id}-branch`}>Branch</label>
            <input
              id={`${id}-branch`}
              className="input mono"
              value={form.branch}
              onChange={set('branch')}
              placeholder="fix/cache-ttl"
              data-testid="task-branch"
              required
              spellCheck={false}
              autoComplete="off"
            />
          </div>
          <div className="field field-grow">
            <label htmlFor={`${id}-base`}>Base commit</label>
            <input
              id={`${id}-base`}
              className="input mono"
              value={form.base_commit}
              onChange={set('base_commit')}
              placeholder="7–64 hex characters"
              data-testid="task-base"
              required
              spellCheck={false}
              autoComplete="off"
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-done`}>Definition of done</label>
          <textarea
            id={`${id}-done`}
            className="input textarea"
            rows={3}
            value={form.done}
            onChange={set('done')}
            data-testid="task-done"
            required
          />
        </div>
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
        <div className="tl-action-buttons">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={create.isPending || !operator || !project || !!refusal}
            title={refusal ?? undefined}
            data-testid="task-submit"
          >
            {create.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <ListPlus size={14} aria-hidden />}
            Request task
          </button>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </article>
  )
}
