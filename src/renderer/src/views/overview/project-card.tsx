/** One project of the fleet: header, role table, findings and memory log. */
import { useEffect, useRef, useState } from 'react'
import { BookOpen, FolderX } from 'lucide-react'
import type { ProjectStatus } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { RelativeTime } from '../../components/relative-time'
import { plural } from '../../lib/format'
import { useUiStore } from '../../stores/ui-store'
import { useDirectivesUi } from '../directives/directives-store'
import type { Attention } from './attention'
import { FindingsList, type CardFinding } from './findings-list'
import { RoleTable } from './role-table'

/** How long a card stays highlighted after a palette jump. */
const FLASH_MS = 1600

/** "N pending directives" for a project, linking to the Directives screen filtered to them. */
function PendingLink({ project, ids }: { project: string; ids: readonly string[] }) {
  if (ids.length === 0) return null
  return (
    <a
      className="attention"
      href="#/directives"
      data-testid={`pending-${project}`}
      title={`Waiting for pickup in ${project}: ${ids.join(', ')}`}
      onClick={() => {
        const ui = useDirectivesUi.getState()
        ui.setFilter({ project, role: '', text: '' })
        ui.setState('pending')
      }}
    >
      🟡 {plural(ids.length, 'pending directive')}
    </a>
  )
}

/** A card of the overview grid. */
export function ProjectCard({ project, attention, lint }: { project: ProjectStatus; attention: Attention; lint: readonly CardFinding[] }) {
  const ref = useRef<HTMLElement>(null)
  const focusProject = useUiStore((s) => s.focusProject)
  const setFocusProject = useUiStore((s) => s.setFocusProject)
  const navigate = useUiStore((s) => s.navigate)
  const [flash, setFlash] = useState(false)

  useEffect(() => {
    if (focusProject !== project.name || !ref.current) return
    ref.current.scrollIntoView({ block: 'center', behavior: 'smooth' })
    ref.current.focus({ preventScroll: true })
    setFocusProject(null)
    setFlash(true)
    const t = setTimeout(() => setFlash(false), FLASH_MS)
    return () => clearTimeout(t)
  }, [focusProject, project.name, setFocusProject])

  const noL0 = project.roles.filter((r) => !r.l0).length
  const errors = project.findings.filter((f) => f.level === 'error').length
  const tone = !project.exists || errors ? 'error' : project.findings.length ? 'warning' : 'ok'

  return (
    <article
      ref={ref}
      tabIndex={-1}
      className={`card card-${tone}${flash ? ' flash' : ''}${project.exists ? '' : ' card-missing'}`}
      data-testid={`project-card-${project.name}`}
      aria-labelledby={`card-title-${project.name}`}
    >
      <header className="card-header">
        <div className="card-title-row">
          <h2 id={`card-title-${project.name}`} className="card-title ellipsis" title={project.name}>
            {project.name}
          </h2>
          <Chip tone="mono" title="Project key, used in PROJECT/ROLE directive targets">
            {project.key}
          </Chip>
          <span className="card-spacer" />
          {project.lastChangeAt ? (
            <span className="card-changed">
              <span className="muted">changed</span> <RelativeTime iso={project.lastChangeAt} />
            </span>
          ) : (
            <span className="muted card-changed">no changes seen</span>
          )}
        </div>
        <div className="card-path mono ellipsis" title={project.path}>
          {project.path}
        </div>
      </header>

      {!project.exists ? (
        <div className="card-missing-body" data-testid={`missing-${project.name}`}>
          <FolderX size={18} aria-hidden />
          <div>
            <strong>Folder missing</strong>
            <p className="muted">
              The folder or its <code>.muse/</code> directory is gone. Restore it and the card fills in again, or{' '}
              <button type="button" className="link-btn" onClick={() => navigate('settings')}>
                remove the project in Settings
              </button>
              .
            </p>
          </div>
        </div>
      ) : project.roles.length === 0 ? (
        <p className="card-empty muted">
          No role files in <code>.muse/</code> yet.
        </p>
      ) : (
        <RoleTable project={project.name} roles={project.roles} pending={attention.byRole} />
      )}

      <FindingsList project={project.name} findings={[...project.findings, ...lint]} />

      <footer className="card-footer">
        <span>{plural(project.roles.length, 'role')}</span>
        {noL0 > 0 && <span className="text-error">{noL0} without L0</span>}
        <PendingLink project={project.name} ids={attention.byProject.get(project.name) ?? []} />
        {project.openTodos > 0 && (
          <span data-testid={`open-todos-${project.name}`} title="Open - [ ] items under the role files' TODO headers">
            {plural(project.openTodos, 'open TODO')}
          </span>
        )}
        <span className="card-spacer" />
        <span className="card-memory" title="Newest daily memory log (memory/YYYY-MM-DD.md)">
          <BookOpen size={12} aria-hidden />
          {project.lastMemoryLog ? <span className="mono">{project.lastMemoryLog}</span> : <span className="muted">no memory log</span>}
        </span>
      </footer>
    </article>
  )
}
