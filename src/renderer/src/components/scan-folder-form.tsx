/** Scans a parent folder and registers every project with a `.muse/` found under it. */
import { useState, type FormEvent } from 'react'
import { FolderSearch } from 'lucide-react'
import { useScanFolder } from '../api/queries'
import type { MethodOutput } from '../../../shared/api'
import { plural } from '../lib/format'
import { FolderField } from './form-field'
import { InlineError } from './state-views'
import { SubmitButton } from './action-button'

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
        <FolderField
          label="Parent folder"
          testId="scan-folder-path"
          placeholder="/home/you/code"
          value={dir}
          onChange={setDir}
          autoFocus={autoFocus}
        />
        <SubmitButton
          busy={scan.isPending}
          icon={FolderSearch}
          className="btn field-submit"
          testId="scan-folder-submit"
          disabled={!dir.trim()}
        >
          Scan folder
        </SubmitButton>
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
