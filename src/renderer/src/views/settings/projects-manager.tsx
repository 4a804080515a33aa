/** Registered projects with remove (confirmed), plus the add and scan forms. */
import { useState } from 'react'
import { FolderGit2 } from 'lucide-react'
import { useHubInfo, useProjects, useRemoveProject } from '../../api/queries'
import { AddProjectForm } from '../../components/add-project-form'
import { RelativeTime } from '../../components/relative-time'
import { ScanFolderForm } from '../../components/scan-folder-form'
import { EmptyState, ErrorState, InlineError, LoadingState } from '../../components/state-views'
import { ProjectKeyEditor } from './project-key-editor'
import { RemoveButton } from './remove-button'

/** The project list of the Settings screen. */
export function ProjectsManager() {
  const projects = useProjects()
  const remove = useRemoveProject()
  const hub = useHubInfo()
  const [confirming, setConfirming] = useState<string | null>(null)

  return (
    <div className="projects-manager">
      {projects.isPending ? (
        <LoadingState label="Loading projects…" />
      ) : projects.isError ? (
        <ErrorState
          title="Could not load the projects"
          error={projects.error}
          onRetry={() => void projects.refetch()}
          retrying={projects.isFetching}
        />
      ) : projects.data.length === 0 ? (
        <EmptyState icon={<FolderGit2 size={18} />} title="No projects registered">
          Add a folder below, scan a parent folder, or create the demo fleet from the Overview.
        </EmptyState>
      ) : (
        <ul className="project-list" data-testid="project-list">
          {projects.data.map((p) => (
            <li key={p.name} className="project-item" data-testid={`project-item-${p.name}`}>
              <FolderGit2 size={15} aria-hidden className="muted" />
              <div className="project-item-text">
                <span className="project-item-name">
                  {p.name} <ProjectKeyEditor project={p} hub={hub.data} />
                </span>
                <span className="mono muted ellipsis" title={p.path}>
                  {p.path}
                </span>
              </div>
              <span className="muted project-item-added">
                added <RelativeTime iso={p.addedAt} />
              </span>
              <RemoveButton
                confirming={confirming === p.name}
                onAsk={() => (remove.reset(), setConfirming(p.name))}
                onCancel={() => setConfirming(null)}
                onConfirm={() => remove.mutate({ name: p.name }, { onSuccess: () => setConfirming(null) })}
                busy={remove.isPending}
                spin
                question="Remove from Muster? Files stay on disk."
                groupLabel={`Confirm removing ${p.name}`}
                testId={`remove-project-${p.name}`}
                confirmTestId={`confirm-remove-${p.name}`}
              />
            </li>
          ))}
        </ul>
      )}
      <InlineError error={remove.error} />
      <div className="projects-forms">
        <AddProjectForm compact />
        <ScanFolderForm compact />
      </div>
    </div>
  )
}
