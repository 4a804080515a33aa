/** Registers one project folder: path (required) and an optional display name. */
import { useState, type FormEvent } from 'react'
import { FolderPlus } from 'lucide-react'
import { useAddProject } from '../api/queries'
import type { Project } from '../../../shared/api'
import { FolderField, TextField } from './form-field'
import { InlineError } from './state-views'
import { SubmitButton } from './action-button'

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
        <FolderField
          label="Project folder"
          testId="add-project-path"
          placeholder="/home/you/code/my-app"
          value={path}
          onChange={setPath}
          autoFocus={autoFocus}
        />
        <TextField
          label="Name"
          optional
          fieldClass="field-name"
          testId="add-project-name"
          literal
          placeholder="folder name"
          value={name}
          onChange={setName}
        />
        <SubmitButton
          busy={add.isPending}
          icon={FolderPlus}
          className="btn btn-primary field-submit"
          testId="add-project-submit"
          disabled={!path.trim()}
        >
          Add project
        </SubmitButton>
      </div>
      <p className="hint">
        A folder that contains a <code>.muse/</code> directory with role files.
      </p>
      <InlineError error={add.error} />
    </form>
  )
}
