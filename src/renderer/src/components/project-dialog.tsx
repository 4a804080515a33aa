/** Modal for adding a project or scanning a folder, opened from the toolbar or the palette. */
import { useUiStore } from '../stores/ui-store'
import { AddProjectForm } from './add-project-form'
import { ModalDialog } from './modal-dialog'
import { ScanFolderForm } from './scan-folder-form'

/** The add/scan dialog; rendered once in the shell, driven by the UI store. */
export function ProjectDialog() {
  const dialog = useUiStore((s) => s.projectDialog)
  const open = useUiStore((s) => s.openProjectDialog)
  const setFocusProject = useUiStore((s) => s.setFocusProject)
  const navigate = useUiStore((s) => s.navigate)
  const title = dialog === 'scan' ? 'Scan a folder for projects' : 'Add a project'
  return (
    <ModalDialog open={!!dialog} onClose={() => open(null)} title={title} titleId="project-dialog-title" testId="project-dialog">
      {dialog === 'add' ? (
        <AddProjectForm
          autoFocus
          onAdded={(p) => {
            open(null)
            navigate('overview')
            setFocusProject(p.name)
          }}
        />
      ) : (
        <ScanFolderForm autoFocus />
      )}
    </ModalDialog>
  )
}
