/**
 * The "Send directive" dialog: writes `📡 **S0XX→TARGET**: 🟡 **title**` + body into the sender's
 * own role file. The API assigns the next free S-id and validates the target and invocation rules;
 * its refusals are shown inline.
 */
import { useId, useMemo, useState, type FormEvent } from 'react'
import { CircleAlert, FileText, LoaderCircle, Send, TriangleAlert } from 'lucide-react'
import { useFleetStatus, useHubInfo, useSendDirective } from '../../api/queries'
import { errorMessage } from '../../lib/format'
import { goTo, roleHref } from '../../lib/muse-route'
import { targetOptions } from './directive-model'
import { useDirectivesUi } from './directives-store'
import { CancelButton } from '../../components/cancel-button'
import { ModalDialog } from '../../components/modal-dialog'

interface Draft {
  project: string
  from: string
  to: string
  title: string
  body: string
  id: string
}

const EMPTY: Draft = { project: '', from: '', to: '', title: '', body: '', id: '' }

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path
}

/** The form inside the dialog. */
function SendForm({ onClose }: { onClose: () => void }) {
  const uid = useId()
  const fleet = useFleetStatus()
  const hub = useHubInfo()
  const send = useSendDirective()
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const projects = useMemo(() => (fleet.data ?? []).filter((p) => p.exists && p.roles.length > 0), [fleet.data])
  const hubProject = hub.data?.project ?? null

  // Defaults: the hub project and its strategy role (where directives usually come from).
  const project = draft.project || (projects.find((p) => p.name === hubProject) ?? projects[0])?.name || ''
  const roles = projects.find((p) => p.name === project)?.roles.map((r) => r.role) ?? []
  const from = roles.includes(draft.from) ? draft.from : roles.includes('strategy') ? 'strategy' : (roles[0] ?? '')
  const targets = useMemo(() => targetOptions(fleet.data ?? [], hubProject), [fleet.data, hubProject])
  const set = (patch: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...patch }))
    if (send.error) send.reset()
  }

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const id = draft.id.trim()
    send.mutate({ project, from, to: draft.to.trim(), title: draft.title.trim(), body: draft.body, ...(id ? { id } : {}) })
  }

  if (send.data) {
    const r = send.data
    return (
      <div className="send-done" data-testid="send-result" role="status">
        <p className="send-done-head">
          Sent{' '}
          <strong className="mono" data-testid="send-assigned-id">
            {r.id}
          </strong>{' '}
          → <span className="mono">{r.target}</span>
        </p>
        <p className="muted">
          Written to <span className="mono">{baseName(r.file)}</span> line {r.line} (the sender’s own file). It shows as 🟡 pending until
          the target picks it up.
        </p>
        {r.warnings.length > 0 && (
          <ul className="send-warnings">
            {r.warnings.map((w) => (
              <li key={w}>
                <TriangleAlert size={13} aria-hidden /> {w}
              </li>
            ))}
          </ul>
        )}
        <div className="dialog-actions">
          <button
            type="button"
            className="btn"
            onClick={() => {
              onClose()
              goTo(roleHref(project, from, r.line))
            }}
          >
            <FileText size={14} aria-hidden /> Open in role file
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              send.reset()
              setDraft({ ...EMPTY, project, from })
            }}
          >
            Send another
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>
            Done
          </button>
        </div>
      </div>
    )
  }

  return (
    <form className="form send-form" onSubmit={submit} data-testid="send-form">
      <div className="send-grid">
        <div className="field">
          <label htmlFor={`${uid}-project`}>Project</label>
          <select
            id={`${uid}-project`}
            className="input select"
            value={project}
            onChange={(e) => set({ project: e.target.value, from: '' })}
            data-testid="send-project"
          >
            {projects.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} ({p.key})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-from`}>From role</label>
          <select
            id={`${uid}-from`}
            className="input select"
            value={from}
            onChange={(e) => set({ from: e.target.value })}
            data-testid="send-from"
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-to`}>To</label>
          <input
            id={`${uid}-to`}
            className="input mono"
            list={`${uid}-targets`}
            value={draft.to}
            onChange={(e) => set({ to: e.target.value })}
            placeholder="QA, MUSE/BUILD, ALL"
            spellCheck={false}
            autoComplete="off"
            data-autofocus
            required
            data-testid="send-to"
          />
          <datalist id={`${uid}-targets`}>
            {targets.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-id`}>
            Id <span className="muted">(optional)</span>
          </label>
          <input
            id={`${uid}-id`}
            className="input mono"
            value={draft.id}
            onChange={(e) => set({ id: e.target.value })}
            placeholder="next free"
            spellCheck={false}
            autoComplete="off"
            data-testid="send-id"
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${uid}-title`}>Title</label>
        <input
          id={`${uid}-title`}
          className="input"
          value={draft.title}
          onChange={(e) => set({ title: e.target.value })}
          placeholder="One line: what the target should do"
          maxLength={300}
          required
          data-testid="send-title"
        />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-body`}>
          Body <span className="muted">(markdown, written as a &gt; blockquote)</span>
        </label>
        <textarea
          id={`${uid}-body`}
          className="input textarea"
          rows={6}
          value={draft.body}
          onChange={(e) => set({ body: e.target.value })}
          placeholder="Scope, acceptance criteria, links…"
          data-testid="send-body"
        />
      </div>
      {send.error && (
        <p className="inline-error" role="alert" data-testid="send-error">
          <CircleAlert size={14} aria-hidden />
          <span>{errorMessage(send.error)}</span>
        </p>
      )}
      <div className="dialog-actions">
        <p className="hint send-hint">
          Written to <span className="mono">{project ? `${project}/.muse/${from}.md` : '—'}</span>, never to the target’s file.
        </p>
        <CancelButton onClick={onClose} />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={send.isPending || !project || !from || !draft.to.trim() || !draft.title.trim()}
          data-testid="send-submit"
        >
          {send.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Send size={14} aria-hidden />}
          Send directive
        </button>
      </div>
    </form>
  )
}

/** The modal; rendered by the Directives screen, opened with the button or `n`. */
export function SendDirectiveDialog() {
  const open = useDirectivesUi((s) => s.sendOpen)
  const setOpen = useDirectivesUi((s) => s.setSendOpen)
  return (
    <ModalDialog
      open={open}
      onClose={() => setOpen(false)}
      // React's autoFocus ran while the dialog was still closed; focus the target field now.
      onOpen={(el) => el.querySelector<HTMLElement>('[data-autofocus]')?.focus()}
      // Keys typed in the dialog must not reach the screen's and the shell's shortcuts.
      onKeyDown={(e) => e.stopPropagation()}
      title="Send a directive"
      titleId="send-dialog-title"
      className="send-dialog"
      testId="send-dialog"
    >
      <SendForm onClose={() => setOpen(false)} />
    </ModalDialog>
  )
}
