/** One role file in a project card: L0 version, top priority, flags, size and age. */
import type { RoleStatus } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { RelativeTime } from '../../components/relative-time'
import { formatBytes } from '../../lib/format'
import { roleHref } from '../../lib/muse-route'
import { useDirectivesUi } from '../directives/directives-store'
import { LineBar } from './line-bar'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

/** How many flag chips fit before collapsing the rest into "+N". */
const VISIBLE_FLAGS = 3

function Flags({ flags }: { flags: readonly string[] }) {
  if (!flags.length) return null
  const shown = flags.slice(0, VISIBLE_FLAGS)
  const rest = flags.length - shown.length
  return (
    <span className="flags">
      {shown.map((f, i) => (
        <Chip key={i} className="flag" title={visibleTitle(f)}>
          <Visible text={f} max={200} />
        </Chip>
      ))}
      {rest > 0 && (
        <Chip
          className="flag-more"
          title={flags
            .slice(VISIBLE_FLAGS)
            .map((f) => visibleTitle(f))
            .join('\n')}
        >
          +{rest}
        </Chip>
      )}
    </span>
  )
}

/** Under the role name: a "needs attention" marker for directives waiting on it, and open TODOs. */
function RoleMarkers({ project, role, pending }: { project: string; role: RoleStatus; pending: readonly string[] }) {
  const todos = role.openTodos + role.doneTodos
  if (pending.length === 0 && todos === 0) return null
  return (
    <span className="role-markers">
      {pending.length > 0 && (
        <a
          className="attention"
          href="#/directives"
          onClick={() => {
            const ui = useDirectivesUi.getState()
            ui.setFilter({ project, role: role.role, text: '' })
            ui.setState('pending')
          }}
          data-testid={`attention-${project}-${role.role}`}
          title={`Needs attention: ${pending.length} pending directive${pending.length === 1 ? '' : 's'} for this role (${pending.join(', ')})`}
        >
          🟡 {pending.length}
        </a>
      )}
      {todos > 0 && (
        <span
          className="todo-count muted"
          data-testid={`todos-${project}-${role.role}`}
          title={`TODO progress: ${role.doneTodos} of ${todos} done, ${role.openTodos} open`}
        >
          ☑ {role.doneTodos}/{todos}
        </span>
      )}
    </span>
  )
}

/** A `<tr>` of the role table. */
export function RoleRow({ project, role, pending }: { project: string; role: RoleStatus; pending: readonly string[] }) {
  const id = `${project}-${role.role}`
  const l0 = role.l0
  return (
    <tr data-testid={`role-row-${id}`} className={l0 ? undefined : 'row-no-l0'}>
      <th scope="row" className="col-role" title={role.file}>
        <a className="role-link" href={roleHref(project, role.role)} data-testid={`role-link-${id}`} title={`Open ${role.file}`}>
          {role.role}
        </a>
        <RoleMarkers project={project} role={role} pending={pending} />
      </th>
      {role.error ? (
        <td colSpan={2} className="col-main">
          <span className="main-line">
            <Chip tone="error">unreadable</Chip>
            <span className="muted ellipsis" title={role.error}>
              {role.error}
            </span>
          </span>
        </td>
      ) : l0 ? (
        <>
          <td className="col-version">
            {l0.version ? (
              <Chip tone="mono" data-testid={`l0-version-${id}`} title={visibleTitle(l0.version)}>
                <Visible text={l0.version} max={200} />
              </Chip>
            ) : (
              <span className="muted" data-testid={`l0-version-${id}`} title="This L0 line has no version part">
                —
              </span>
            )}
          </td>
          <td className="col-main">
            <span className="main-line">
              <span
                className={`priority ellipsis${l0.topPriority ? '' : ' muted'}`}
                data-testid={`l0-priority-${id}`}
                title={visibleTitle(l0.topPriority ?? l0.raw)}
              >
                {l0.topPriority ? <Visible text={l0.topPriority} /> : '—'}
              </span>
              {l0.overLimit && (
                <span className="overlimit" title={`L0 body is ${l0.length} characters; the spec allows 120`}>
                  {l0.length}/120
                </span>
              )}
            </span>
            <Flags flags={l0.flags} />
          </td>
        </>
      ) : (
        <td colSpan={2} className="col-main">
          <span className="main-line">
            <Chip tone="error" data-testid={`no-l0-${id}`} title="Line 1 is not an <!-- L0: … --> status line (lint finding)">
              no L0
            </Chip>
            <span className="muted ellipsis">line 1 has no status line</span>
          </span>
        </td>
      )}
      <td className="col-lines">
        <LineBar lines={role.lines} level={role.sizeLevel} bytes={formatBytes(role.sizeBytes)} />
      </td>
      <td className="col-modified">
        <RelativeTime iso={role.modifiedAt} compact />
      </td>
    </tr>
  )
}
