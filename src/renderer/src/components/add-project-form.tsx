/** Registers one project folder: path (required) and an optional display name. */
import { useId, useState, type FormEvent } from 'react'
import { FolderPlus, LoaderCircle } from 'lucide-react'
import { useAddProject } from '../api/queries'
import type { Project } from '../../../shared/api'
import { InlineError } from './state-views'

/** The add-project form; `onAdded` runs after the server accepted the folder. */
export function AddProjectForm({
  onAdded,
  autoFocus,
  compact
}: {
  onAdded?: (project: Project) => void
  autoFocus?: boolean
  compact?: boolean
}) {
  const id = useId()
  const [path, setPath] = useState('')
  const [name, setName] = useState('')
  const add = useAddProject()

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const trimmedName = name.trim()
    add.mutate(
      { path: path.trim(), ...(trimmedName ? { name: trimmedName } : {}) },
      {
        onSuccess: (project) => {
          setPath('')
          setName('')
          onAdded?.(project)
        }
      }
    )
  }

  return (
    <form className={`form${compact ? ' form-compact' : ''}`} onSubmit={submit} data-testid="add-project">
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor={`${id}-path`}>Project folder</label>
          <input
            id={`${id}-path`}
            data-testid="add-project-path"
            className="input mono"
            placeholder="/home/you/code/my-app"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            autoFocus={autoFocus}
            spellCheck={false}
            autoComplete="off"
            required
          />
        </div>
        <div className="field field-name">
          <label htmlFor={`${id}-name`}>
            Name <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-name`}
            data-testid="add-project-name"
            className="input"
            placeholder="folder name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <button
          type="submit"
          className="btn btn-primary field-submit"
          data-testid="add-project-submit"
          disabled={add.isPending || !path.trim()}
        >
          {add.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <FolderPlus size={14} aria-hidden />}
          Add project
        </button>
      </div>
      <p className="hint">
        A folder that contains a <code>.muse/</code> directory with role files.
      </p>
      <InlineError error={add.error} />
    </form>
  )
}
