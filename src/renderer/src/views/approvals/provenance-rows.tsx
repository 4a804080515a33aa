/**
 * Where a request's call comes from, as rows of the detail's definition list: the skill or slash
 * command of a skill's shell line, the MCP server (a server configured by the repository itself,
 * `project` or `local`, is marked: a repository's `.mcp.json` server can share a tool name with a
 * built-in one), the subagent, the permission mode, and any payload field Muster does not know yet.
 */
import type { ApprovalItem } from '../../../../shared/api'
import { Visible } from '../../components/visible'

/** MCP server sources that come with the repository being worked on, not from the operator. */
const REPOSITORY_SOURCES = new Set(['project', 'local'])

/** The provenance rows (nothing when the harness said nothing). */
export function ProvenanceRows({ item }: { item: ApprovalItem }) {
  const p = item.provenance
  const extra = item.extra_fields ? Object.keys(item.extra_fields) : []
  if (!p && !extra.length) return null
  return (
    <>
      {p?.skill && (
        <>
          <dt>Skill</dt>
          <dd data-testid="provenance-skill">
            <span className="mono">
              <Visible text={p.skill.command_name} />
            </span>
            {p.skill.command_source && (
              <>
                {' '}
                (<Visible text={p.skill.command_source} />)
              </>
            )}
            {p.skill.invoked_by && (
              <>
                , invoked by <Visible text={p.skill.invoked_by} />
              </>
            )}
          </dd>
        </>
      )}
      {p?.mcp_server && (
        <>
          <dt>MCP server</dt>
          <dd data-testid="provenance-mcp">
            <span className="mono">
              <Visible text={p.mcp_server.name} />
            </span>{' '}
            <span className={REPOSITORY_SOURCES.has(p.mcp_server.source) ? 'text-warning' : 'muted'}>
              ({REPOSITORY_SOURCES.has(p.mcp_server.source) ? 'configured by the repository: ' : ''}
              <Visible text={p.mcp_server.source} />
              {p.mcp_server.built_in ? ', built in' : ''})
            </span>
          </dd>
        </>
      )}
      {(p?.agent_id || p?.agent_type) && (
        <>
          <dt>{p.agent_id ? 'Subagent' : 'Agent type'}</dt>
          <dd className="mono" data-testid="provenance-subagent">
            <Visible text={[p.agent_type, p.agent_id].filter(Boolean).join(' ')} />
          </dd>
        </>
      )}
      {p?.permission_mode && (
        <>
          <dt>Mode</dt>
          <dd className="mono" data-testid="provenance-mode">
            <Visible text={p.permission_mode} />
          </dd>
        </>
      )}
      {extra.length > 0 && (
        <>
          <dt>New fields</dt>
          <dd className="mono ellipsis" title={JSON.stringify(item.extra_fields)} data-testid="provenance-extra">
            <Visible text={extra.join(', ')} />
          </dd>
        </>
      )}
    </>
  )
}
