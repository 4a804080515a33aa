/** A project's key (the PROJECT of `PROJECT/ROLE` directive targets) and its hub mark, editable. */
import { useState, type FormEvent } from 'react'
import { Check, Pencil, Star, X } from 'lucide-react'
import type { MuseHub, Project } from '../../../../shared/api'
import { useSetMuseHub, useSetProjectKey } from '../../api/queries'
import { InlineError } from '../../components/state-views'

/** Inline key editor plus the "hub project" toggle for one registered project. */
export function ProjectKeyEditor({ project, hub }: { project: Project; hub: MuseHub | undefined }) {
  const setKey = useSetProjectKey()
  const setHub = useSetMuseHub()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(project.key)
  const isHub = hub?.project === project.name

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    setKey.mutate({ name: project.name, key: draft }, { onSuccess: () => setEditing(false) })
  }

  return (
    <span className="project-key">
      {editing ? (
        <form className="project-key-form" onSubmit={submit}>
          <input
            className="input mono"
            value={draft}
            onChange={(e) => setDraft(e.target.value.toUpperCase())}
            aria-label={`Key of ${project.name}`}
            data-testid={`key-input-${project.name}`}
            autoFocus
            size={10}
          />
          <button
            type="submit"
            className="btn-icon"
            aria-label="Save key"
            data-testid={`key-save-${project.name}`}
            disabled={setKey.isPending}
          >
            <Check size={14} />
          </button>
          <button
            type="button"
            className="btn-icon"
            aria-label="Cancel"
            onClick={() => (setEditing(false), setDraft(project.key), setKey.reset())}
          >
            <X size={14} />
          </button>
        </form>
      ) : (
        <button
          type="button"
          className="link-btn mono"
          onClick={() => setEditing(true)}
          data-testid={`key-edit-${project.name}`}
          title="Change the key used in PROJECT/ROLE directive targets"
        >
          {project.key} <Pencil size={11} aria-hidden />
        </button>
      )}
      <button
        type="button"
        className={`btn btn-ghost btn-sm${isHub ? ' is-hub' : ''}`}
        aria-pressed={isHub}
        data-testid={`hub-mark-${project.name}`}
        disabled={setHub.isPending}
        title={
          isHub
            ? `Hub project (${hub?.source}): bare ROLE targets resolve here. Click to forget the mark.`
            : 'Mark as the hub project (holder of the global strategy.md)'
        }
        onClick={() => setHub.mutate({ project: isHub && hub?.source === 'operator' ? null : project.name })}
      >
        <Star size={13} aria-hidden fill={isHub ? 'currentColor' : 'none'} /> {isHub ? 'Hub' : 'Make hub'}
      </button>
      <InlineError error={setKey.error ?? setHub.error} />
    </span>
  )
}
