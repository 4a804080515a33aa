/** The compact table of a project's role files. */
import type { RoleStatus } from '../../../../shared/api'
import { roleKey } from './attention'
import { RoleRow } from './role-row'

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
      <thead>
        <tr>
          <th scope="col">Role</th>
          <th scope="col">Version</th>
          <th scope="col">Top priority · flags</th>
          <th scope="col" className="num">
            Lines
          </th>
          <th scope="col" className="num">
            Modified
          </th>
        </tr>
      </thead>
      <tbody>
        {roles.map((r) => (
          <RoleRow key={r.role} project={project} role={r} pending={pending.get(roleKey(project, r.role)) ?? []} />
        ))}
      </tbody>
    </table>
  )
}
