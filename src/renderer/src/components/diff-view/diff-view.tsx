/**
 * Diff view of a raw patch (byte-exact, never normalised): file list to jump to a file, unified or
 * split view (a keyboard-accessible radio group), large files collapsed, binary files described.
 */
import { startTransition, useEffect, useMemo, useState } from 'react'
import type { ViewType } from 'react-diff-view'
import 'react-diff-view/style/index.css'
import './diff-view.css'
import { afterPaint } from './after-paint'
import { DiffFile } from './diff-file'
import { firstScreenFiles, parsePatch } from './patch-model'
import { ViewToggle } from './view-toggle'

/** Props: the patch exactly as stored. */
export function DiffView({ patch, label = 'Patch' }: { patch: string; label?: string }) {
  const [viewType, setViewType] = useState<ViewType>('unified')
  const files = useMemo(() => parsePatch(patch), [patch])
  // the first screen renders only the files it needs; the rest follow one per frame once it is painted
  const [shown, setShown] = useState(0)
  const count = Math.max(shown, firstScreenFiles(files))
  useEffect(() => {
    if (count >= files.length) return
    return afterPaint(() => startTransition(() => setShown(count + 1)))
  }, [count, files.length])
  if (files.length === 0)
    return (
      <p className="dv-note" role="status">
        This patch has no file changes.
      </p>
    )
  return (
    <div className="dv" data-testid="diff-view">
      <div className="dv-toolbar">
        <span className="dv-summary">{files.length === 1 ? '1 file' : `${files.length} files`}</span>
        <ViewToggle value={viewType} onChange={setViewType} />
      </div>
      <div className={`dv-body${files.length === 1 ? ' dv-body-single' : ''}`}>
        {/* one file: its header names it, a list would only take room from the code */}
        {files.length > 1 && (
          <nav className="dv-files" aria-label={`${label}: files`}>
            <ul>
              {files.map((f) => (
                <li key={f.id}>
                  <a
                    href={`#${f.id}`}
                    onClick={(e) => {
                      e.preventDefault()
                      document.getElementById(f.id)?.scrollIntoView({ block: 'start' })
                      ;(document.getElementById(f.id) as HTMLElement | null)?.focus()
                    }}
                  >
                    <span className="dv-files-path">{f.path}</span>
                    <span className="dv-files-count">{f.binary ? 'bin' : f.lineCount}</span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="dv-scroll" data-testid="diff-scroll" tabIndex={0} aria-label={`${label}: diff`}>
          {files.slice(0, count).map((f) => (
            <DiffFile key={f.id} file={f} viewType={viewType} />
          ))}
        </div>
      </div>
    </div>
  )
}
