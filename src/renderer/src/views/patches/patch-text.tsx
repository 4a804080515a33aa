/**
 * The patch's text in the detail pane: the diff view (unified or split, file list, syntax colours,
 * large files behind "Load anyway", CR bytes shown), loaded on demand; below it the exact bytes as
 * stored, in a fold (hidden characters marked, as everywhere). A patch with no file sections (or no artifact) is explained instead.
 */
import { lazy, Suspense } from 'react'
import { LoadingState } from '../../components/state-views'
import { Visible } from '../../components/visible'

/** Characters of the stored bytes shown (a hub artifact is at most 4 MiB; a larger one written past the hub's rules is cut). */
const PATCH_BYTES_SHOWN = 4 * 1024 * 1024

const DiffView = lazy(() => import('../../components/diff-view/diff-view').then((m) => ({ default: m.DiffView })))

/** Props: the artifact's text exactly as stored (null: missing from the hub), and its file count. */
export function PatchText({ content, fileCount }: { content: string | null; fileCount: number }) {
  return (
    <section className="patch-content" aria-label="Patch text" data-testid="patch-content">
      <h3>
        Patch{' '}
        <span className="muted">
          · {fileCount} file{fileCount === 1 ? '' : 's'}
        </span>
      </h3>
      {content === null ? (
        <p className="muted">The artifact is missing from the hub.</p>
      ) : (
        <>
          <Suspense fallback={<LoadingState label="Loading the diff view…" />}>
            <DiffView patch={content} label="Patch" />
          </Suspense>
          <details className="patch-raw-fold">
            <summary>Exact bytes as stored</summary>
            <pre className="patch-raw" tabIndex={0} aria-label="Patch bytes" data-testid="patch-raw">
              <Visible text={content} multiline keepTabs max={PATCH_BYTES_SHOWN} />
            </pre>
          </details>
        </>
      )}
    </section>
  )
}
