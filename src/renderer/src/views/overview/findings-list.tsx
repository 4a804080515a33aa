/** Lint findings at the bottom of a project card (no L0, long L0, bloated files, missing folder). */
import { useState } from 'react'
import { CircleAlert, TriangleAlert } from 'lucide-react'
import type { ProjectStatus } from '../../../../shared/api'

/** Findings beyond this many are folded behind "show N more". */
const VISIBLE = 3

/** The findings of one project, errors first. */
export function FindingsList({ project, findings }: { project: string; findings: ProjectStatus['findings'] }) {
  const [expanded, setExpanded] = useState(false)
  if (!findings.length) return null
  const sorted = [...findings].sort((a, b) => rank(b.level) - rank(a.level))
  const shown = expanded ? sorted : sorted.slice(0, VISIBLE)
  const hidden = sorted.length - shown.length
  return (
    <div className="findings" data-testid={`findings-${project}`}>
      <ul>
        {shown.map((f, i) => (
          <li key={i} className={`finding finding-${f.level}`}>
            {f.level === 'error' ? <CircleAlert size={13} aria-label="error" /> : <TriangleAlert size={13} aria-label="warning" />}
            {f.role && <span className="finding-role">{f.role}</span>}
            <span className="finding-msg ellipsis" title={f.message}>
              {f.message}
            </span>
          </li>
        ))}
      </ul>
      {(hidden > 0 || expanded) && sorted.length > VISIBLE && (
        <button type="button" className="link-btn" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
          {expanded ? 'Show fewer' : `Show ${hidden} more`}
        </button>
      )}
    </div>
  )
}

function rank(level: string): number {
  return level === 'error' ? 2 : level === 'warning' ? 1 : 0
}
