/** Scans a parent folder and registers every project with a `.muse/` found under it. */
import { useId, useState, type FormEvent } from 'react'
import { FolderSearch, LoaderCircle } from 'lucide-react'
import { useScanFolder } from '../api/queries'
import type { MethodOutput } from '../../../shared/api'
import { plural } from '../lib/format'
import { InlineError } from './state-views'

/** The scan form with a short report of what was added and what was skipped. */
export function ScanFolderForm({
  onScanned,
  autoFocus,
  compact
}: {
  onScanned?: (result: MethodOutput<'projects.scan'>) => void
  autoFocus?: boolean
  compact?: boolean
}) {
  const id = useId()
  const [dir, setDir] = useState('')
  const scan = useScanFolder()

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    scan.mutate({ dir: dir.trim() }, { onSuccess: (result) => onScanned?.(result) })
  }

  const result = scan.data
  return (
    <form className={`form${compact ? ' form-compact' : ''}`} onSubmit={submit} data-testid="scan-folder">
      <div className="field-row">
        <div className="field field-grow">
          <label htmlFor={`${id}-dir`}>Parent folder</label>
          <input
            id={`${id}-dir`}
            data-testid="scan-folder-path"
            className="input mono"
            placeholder="/home/you/code"
            value={dir}
            onChange={(e) => setDir(e.target.value)}
            autoFocus={autoFocus}
            spellCheck={false}
            autoComplete="off"
            required
          />
        </div>
        <button type="submit" className="btn field-submit" data-testid="scan-folder-submit" disabled={scan.isPending || !dir.trim()}>
          {scan.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <FolderSearch size={14} aria-hidden />}
          Scan folder
        </button>
      </div>
      <p className="hint">
        Registers every sub-folder that holds a <code>.muse/</code> directory.
      </p>
      <InlineError error={scan.error} />
      {result && (
        <div className="scan-result" role="status" data-testid="scan-result">
          <strong>{result.added.length ? `Added ${plural(result.added.length, 'project')}` : 'No new projects found'}</strong>
          {result.added.length > 0 && <span className="muted"> · {result.added.map((p) => p.name).join(', ')}</span>}
          {result.skipped.length > 0 && (
            <details>
              <summary>{plural(result.skipped.length, 'folder')} skipped</summary>
              <ul className="skipped-list">
                {result.skipped.map((s) => (
                  <li key={s.path}>
                    <code title={s.path}>{s.path}</code> <span className="muted">— {s.reason}</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </form>
  )
}
