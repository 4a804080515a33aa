/** Modal for adding a project or scanning a folder, opened from the toolbar or the palette. */
import { useEffect, useRef } from 'react'
import { X } from 'lucide-react'
import { useUiStore } from '../stores/ui-store'
import { AddProjectForm } from './add-project-form'
import { ScanFolderForm } from './scan-folder-form'

/** The add/scan dialog; rendered once in the shell, driven by the UI store. */
export function ProjectDialog() {
  const dialog = useUiStore((s) => s.projectDialog)
  const open = useUiStore((s) => s.openProjectDialog)
  const setFocusProject = useUiStore((s) => s.setFocusProject)
  const navigate = useUiStore((s) => s.navigate)
  const ref = useRef<HTMLDialogElement>(null)

  useEffect(() => {
    const el = ref.current
    if (!el) return
    if (dialog && !el.open) el.showModal()
    if (!dialog && el.open) el.close()
  }, [dialog])

  const title = dialog === 'scan' ? 'Scan a folder for projects' : 'Add a project'
  return (
    <dialog ref={ref} className="dialog" onClose={() => open(null)} aria-labelledby="project-dialog-title" data-testid="project-dialog">
      {dialog && (
        <>
          <header className="dialog-header">
            <h2 id="project-dialog-title">{title}</h2>
            <button type="button" className="btn-icon" onClick={() => open(null)} aria-label="Close">
              <X size={16} />
            </button>
          </header>
          <div className="dialog-body">
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
          </div>
        </>
      )}
    </dialog>
  )
}
