/** The head of the role viewer: project/role, L0 status line, size against the 500/800 thresholds, lint. */
import { ArrowLeft, CircleAlert, TriangleAlert } from 'lucide-react'
import type { LintFinding, RoleDetail } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { CopyButton } from '../../components/copy-button'
import { formatBytes } from '../../lib/format'
import { LineBar } from '../overview/line-bar'
import { OpenInEditorButton } from './open-in-editor-button'

function L0Line({ l0 }: { l0: RoleDetail['l0'] }) {
  if (!l0) {
    return (
      <div className="rv-l0" data-testid="role-l0">
        <Chip tone="error" title="Line 1 is not an <!-- L0: … --> status line">
          no L0
        </Chip>
        <span className="muted">line 1 has no status line</span>
      </div>
    )
  }
  return (
    <div className="rv-l0" data-testid="role-l0" title={l0.raw}>
      <span className="rv-l0-tag">L0</span>
      {l0.version ? <Chip tone="mono">{l0.version}</Chip> : <span className="muted">no version</span>}
      {l0.topPriority && <span className="rv-l0-priority ellipsis">{l0.topPriority}</span>}
      {l0.flags.map((f, i) => (
        <Chip key={i} className="flag" title={f}>
          {f}
        </Chip>
      ))}
      {l0.overLimit && (
        <span className="overlimit" title={`L0 body is ${l0.length} characters; the spec allows 120`}>
          {l0.length}/120
        </span>
      )}
    </div>
  )
}

/** Header of the viewer; `path` is the file's full path when the project folder is known. */
export function RoleHeader({
  detail,
  path,
  bytes,
  lint,
  onJump
}: {
  detail: RoleDetail
  path: string
  bytes: number
  lint: readonly LintFinding[]
  onJump: (line: number) => void
}) {
  return (
    <header className="rv-head">
      <div className="rv-title-row">
        <a href="#/directives" className="btn-icon" aria-label="Back to directives" title="Back to directives">
          <ArrowLeft size={16} />
        </a>
        <h1 className="rv-title">
          <span className="muted">{detail.project} /</span> {detail.role}
        </h1>
        <span className="rv-path mono ellipsis" title={path} data-testid="role-path">
          {path}
        </span>
        <CopyButton text={path} label="Copy file path" testId="copy-role-path" />
        <OpenInEditorButton project={detail.project} role={detail.role} />
        <span className="card-spacer" />
        <span className="rv-size" title="Line count (wc -l): over 500 directives get buried, over 800 the file must be archived">
          <LineBar lines={detail.lines} level={detail.sizeLevel} bytes={formatBytes(bytes)} />
          <span className="rv-thresholds muted">lines · 500 / 800</span>
        </span>
      </div>
      <L0Line l0={detail.l0} />
      {lint.length > 0 && (
        <ul className="rv-lint" aria-label="Lint findings" data-testid="role-lint">
          {lint.map((f, i) => (
            <li key={i}>
              <button
                type="button"
                className={`rv-lint-item rv-lint-${f.level}`}
                disabled={!f.line}
                onClick={() => f.line && onJump(f.line)}
                title={f.line ? `${f.message} (line ${f.line})` : f.message}
              >
                {f.level === 'error' ? <CircleAlert size={12} aria-hidden /> : <TriangleAlert size={12} aria-hidden />}
                <span className="rv-lint-code">{f.code}</span>
                <span className="ellipsis">{f.message}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </header>
  )
}
