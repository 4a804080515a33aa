/** Appends a note to a project's daily memory log (`memory/YYYY-MM-DD.md`, created if missing). */
import { useId, useState, type FormEvent } from 'react'
import { LoaderCircle, NotebookPen } from 'lucide-react'
import { useMemoryWrite } from '../../api/queries'
import { InlineError } from '../../components/state-views'
import { FilterSelect } from '../../components/filter-select'

/** The form; `projects` are the registered project names, `defaultProject` preselected. */
export function MemoryWriteForm({ projects, defaultProject }: { projects: readonly string[]; defaultProject: string }) {
  const uid = useId()
  const write = useMemoryWrite()
  const [project, setProject] = useState('')
  const [section, setSection] = useState('')
  const [text, setText] = useState('')
  const chosen = projects.includes(project) ? project : defaultProject || projects[0] || ''

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const s = section.trim()
    write.mutate({ project: chosen, text: text.trim(), ...(s ? { section: s } : {}) }, { onSuccess: () => setText('') })
  }

  return (
    <form className="form panel mem-write" onSubmit={submit} data-testid="memory-write" aria-labelledby={`${uid}-title`}>
      <h3 id={`${uid}-title`} className="mem-write-title">
        <NotebookPen size={14} aria-hidden /> Write to today’s memory log
      </h3>
      <div className="field">
        <label htmlFor={`${uid}-project`}>Project</label>
        <FilterSelect id={`${uid}-project`} value={chosen} onChange={setProject} options={projects} testId="memory-write-project" />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-section`}>
          Section <span className="muted">(optional)</span>
        </label>
        <input
          id={`${uid}-section`}
          className="input"
          value={section}
          onChange={(e) => setSection(e.target.value)}
          placeholder="[OPERATOR] 决策"
          maxLength={80}
          data-testid="memory-write-section"
        />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-text`}>Text</label>
        <textarea
          id={`${uid}-text`}
          className="input textarea"
          rows={5}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            if (write.data || write.error) write.reset()
          }}
          placeholder="- 决定: …"
          required
          data-testid="memory-write-text"
        />
      </div>
      <div className="mem-write-actions">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={write.isPending || !chosen || !text.trim()}
          data-testid="memory-write-submit"
        >
          {write.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <NotebookPen size={14} aria-hidden />}
          Append
        </button>
        <span className="hint mono">→ memory/{new Date().toLocaleDateString('sv-SE')}.md</span>
      </div>
      {write.data && (
        <p className="mem-write-done" role="status" data-testid="memory-write-result">
          Written to <span className="mono">{write.data.file}</span> line {write.data.line}
          {write.data.created ? ' (new log file)' : ''}.
        </p>
      )}
      <InlineError error={write.error} />
    </form>
  )
}
