/** The compact table of a project's role files. */
import type { RoleStatus } from '../../../../shared/api'
import { TableHead, type Column } from '../../components/table-head'
import { roleKey } from './attention'
import { RoleRow } from './role-row'

const ROLE_COLUMNS: readonly Column[] = [
  'Role',
  'Version',
  'Top priority · flags',
  { label: 'Lines', num: true },
  { label: 'Modified', num: true }
]

/** Role files of one project, one line each. */
export function RoleTable({
  project,
  roles,
  pending
}: {
  project: string
  roles: readonly RoleStatus[]
  pending: ReadonlyMap<string, string[]>
}) {
  return (
    <table className="roles">
      <colgroup>
        <col className="c-role" />
        <col className="c-version" />
        <col />
        <col className="c-lines" />
        <col className="c-modified" />
      </colgroup>
      <TableHead columns={ROLE_COLUMNS} />
      <tbody>
        {roles.map((r) => (
          <RoleRow key={r.role} project={project} role={r} pending={pending.get(roleKey(project, r.role)) ?? []} />
        ))}
      </tbody>
    </table>
  )
}
