/** The patch inbox: one row per `patch.ready` with sender, target, project, size, age and state; arrow keys / j k move. */
import { listKeyTarget } from '../../lib/list-keys'
import type { KeyboardEvent } from 'react'
import type { PatchSummary } from '../../../../shared/api'
import { RelativeTime } from '../../components/relative-time'
import { formatBytes } from '../../lib/format'
import { PatchStateBadge } from './patch-state-badge'
import { Visible } from '../../components/visible'

/** Props of `PatchList`. */
export interface PatchListProps {
  patches: PatchSummary[]
  selected: string | null
  onSelect: (id: string) => void
}

/** The inbox list (a listbox: Up/Down or j/k move, Home/End jump). */
export function PatchList({ patches, selected, onSelect }: PatchListProps) {
  const index = Math.max(
    0,
    patches.findIndex((p) => p.event.id === selected)
  )
  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const next = listKeyTarget(e.key, index, patches.length)
    if (next === null) return
    e.preventDefault()
    const id = patches[next]?.event.id
    if (id) {
      onSelect(id)
      document.getElementById(`patch-row-${id}`)?.scrollIntoView({ block: 'nearest' })
    }
  }
  return (
    <ul
      className="patch-list"
      role="listbox"
      aria-label="Patches"
      tabIndex={0}
      onKeyDown={onKey}
      aria-activedescendant={selected ? `patch-row-${selected}` : undefined}
      data-testid="patch-list"
    >
      {patches.map((p) => (
        <li
          key={p.event.id}
          id={`patch-row-${p.event.id}`}
          role="option"
          aria-selected={p.event.id === selected}
          className={`patch-row${p.event.id === selected ? ' selected' : ''}`}
          onClick={() => onSelect(p.event.id)}
          data-testid="patch-row"
        >
          <div className="patch-row-top">
            <span className="patch-row-from">
              <Visible text={p.event.from_agent} />
            </span>
            <span className="muted">
              → <Visible text={p.event.to_agent ?? '*'} />
            </span>
            <span className="card-spacer" />
            <PatchStateBadge state={p.state} verdict={p.verdict} byMuster={p.state_by_muster} />
          </div>
          <div className="patch-row-body">
            <Visible text={p.event.body.split('\n')[0] || p.event.correlation_id || p.event.id} />
          </div>
          <div className="patch-row-meta muted">
            <span>
              <Visible text={p.project ?? p.event.stream} />
            </span>
            {p.event.branch && (
              <span className="mono">
                <Visible text={p.event.branch} />
              </span>
            )}
            <span>
              {p.file_count} file{p.file_count === 1 ? '' : 's'} <span className="patch-add">+{p.additions}</span>{' '}
              <span className="patch-del">−{p.deletions}</span>
            </span>
            {p.size_bytes !== null && <span>{formatBytes(p.size_bytes)}</span>}
            <RelativeTime iso={p.event.created_at} compact />
          </div>
        </li>
      ))}
    </ul>
  )
}
