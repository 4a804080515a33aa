/**
 * One file of the diff view: header with its flags, then its hunks (react-diff-view), collapsed
 * behind "Load anyway" when large, described when binary. CR bytes are shown as a ↵ marker.
 */
import { useEffect, useMemo, useState } from 'react'
import { Diff, Hunk, type ChangeData, type HunkData, type HunkTokens, type ViewType } from 'react-diff-view'
import { highlightHunks, sliceRows } from './highlight'
import { FIRST_SCREEN_ROWS, languageOf, type PatchFile } from './patch-model'

/** Display copy of a hunk: each CR byte becomes a visible ↵ (U+21B5; fonts on Linux lack ␍, U+240D). The raw patch is untouched. */
function withVisibleCr(hunk: HunkData): HunkData {
  if (!hunk.changes.some((c) => c.content.includes('\r'))) return hunk
  const changes: ChangeData[] = hunk.changes.map((c) => (c.content.includes('\r') ? { ...c, content: c.content.replace(/\r/g, '↵') } : c))
  return { ...hunk, changes }
}

/** Props: the file and the current view type. */
export function DiffFile({ file, viewType }: { file: PatchFile; viewType: ViewType }) {
  const [loaded, setLoaded] = useState(!file.large)
  // the first screen's rows render at once; the rest follow in tasks that double the rows, so a
  // 2,400-line file takes 5 re-renders rather than one per chunk (each re-render redraws all rows)
  const [limit, setLimit] = useState(FIRST_SCREEN_ROWS)
  useEffect(() => {
    if (!loaded || limit >= file.lineCount) return
    const t = setTimeout(() => setLimit(limit * 2), 0)
    return () => clearTimeout(t)
  }, [loaded, limit, file.lineCount])
  const all = useMemo(() => (loaded ? file.data.hunks.map(withVisibleCr) : []), [loaded, file])
  const hunks = useMemo(() => (limit >= file.lineCount ? all : sliceRows(all, 0, limit)), [all, limit, file.lineCount])
  // colours for the whole file follow in a later task, so the first screen paints plain text first
  const [tokens, setTokens] = useState<HunkTokens | null>(null)
  useEffect(() => {
    const t = setTimeout(() => setTokens(highlightHunks(all, languageOf(file.path))), 0)
    return () => clearTimeout(t)
  }, [all, file.path])
  const { data } = file
  return (
    <section className="dv-file" id={file.id} tabIndex={-1} aria-labelledby={`${file.id}-title`} data-testid="diff-file">
      <header className="dv-file-head" data-diff-row>
        <h3 id={`${file.id}-title`} className="dv-file-path">
          {data.type === 'rename' ? `${data.oldPath} → ${data.newPath}` : file.path}
        </h3>
        <span className={`dv-tag dv-tag-${data.type}`}>{data.type}</span>
        {!file.binary && <span className="dv-tag">{languageOf(file.path)}</span>}
        {file.crlfLines > 0 && (
          <span className="dv-tag dv-warn" title="Lines end in a carriage return (CRLF)">
            CRLF ×{file.crlfLines}
          </span>
        )}
        {(file.noFinalNewline.old || file.noFinalNewline.new) && <span className="dv-tag dv-warn">no final newline</span>}
        <span className="dv-file-count">{file.lineCount} lines</span>
      </header>
      {file.binary ? (
        <p className="dv-note" data-diff-row>
          Binary file changed: its contents are not shown as text.
        </p>
      ) : !loaded ? (
        <div className="dv-collapsed" data-diff-row>
          <span>Large file: {file.lineCount} lines collapsed.</span>
          <button type="button" className="btn" onClick={() => setLoaded(true)}>
            Load anyway
          </button>
        </div>
      ) : (
        <>
          <Diff viewType={viewType} diffType={data.type} hunks={hunks} tokens={tokens} className="dv-table">
            {(hs) => hs.map((h, i) => <Hunk key={`${i}:${h.content}`} hunk={h} />)}
          </Diff>
          {file.noFinalNewline.old && (
            <p className="dv-nonl" data-diff-row>
              \ No newline at end of file (old)
            </p>
          )}
          {file.noFinalNewline.new && (
            <p className="dv-nonl" data-diff-row>
              \ No newline at end of file (new)
            </p>
          )}
        </>
      )}
    </section>
  )
}
