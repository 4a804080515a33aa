/** Findings at the bottom of a project card: the overview's own (no L0, long L0, bloat, missing
 * folder) plus the cross-file lint checks (stale L0, bad targets, duplicates, after the footer). */
import { useState } from 'react'
import { CircleAlert, TriangleAlert } from 'lucide-react'
import { roleHref } from '../../lib/muse-route'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

/** One line of the list; `line` makes it a link into the role viewer. */
export interface CardFinding {
  level: string
  role: string | null
  message: string
  line?: number | null
}

/** Findings beyond this many are folded behind "show N more". */
const VISIBLE = 3

/** The findings of one project, errors first. */
export function FindingsList({ project, findings }: { project: string; findings: readonly CardFinding[] }) {
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
            {f.role && (
              <span className="finding-role">
                <Visible text={f.role} />
              </span>
            )}
            {f.role && f.line ? (
              <a
                className="finding-msg ellipsis"
                href={roleHref(project, f.role, f.line)}
                title={`${visibleTitle(f.message)} (line ${f.line})`}
              >
                <Visible text={f.message} />
              </a>
            ) : (
              <span className="finding-msg ellipsis" title={visibleTitle(f.message)}>
                <Visible text={f.message} />
              </span>
            )}
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
