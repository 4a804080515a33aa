/**
 * One file of the diff view: header with its flags, then its hunks (react-diff-view) in chunks of
 * rows, collapsed behind "Load anyway" when large, described when binary. CR bytes are shown as a
 * ↵ marker, other hidden characters as their escapes. Everything after the first screen's rows (more rows, colours) follows the first paint.
 */
import { memo, startTransition, useEffect, useMemo, useState } from 'react'
import { Diff, Hunk, type ChangeData, type DiffType, type HunkData, type HunkTokens, type ViewType } from 'react-diff-view'
import { afterPaint } from './after-paint'
import { requestTokens } from './highlighter'
import { FIRST_SCREEN_ROWS, languageOf, type DiffFile } from './patch-model'
import { rowChunks, sliceRows } from './row-chunks'
import { visible } from '../../../../shared/visible-text'
import { Visible } from '../visible'

/**
 * Display copy of a hunk: each CR byte becomes a visible ↵ (U+21B5; fonts on Linux lack ␍, U+240D)
 * and every other hidden character its escape (`\u202e`: a bidi control in code is the Trojan
 * Source attack, shown as what it is, never applied). The raw patch is untouched.
 */
function withVisibleHidden(hunk: HunkData): HunkData {
  let changed = false
  const changes: ChangeData[] = hunk.changes.map((c) => {
    const content = visible(c.content.includes('\r') ? c.content.replace(/\r/g, '↵') : c.content, { keepTabs: true })
    if (content === c.content) return c
    changed = true
    return { ...c, content }
  })
  return changed ? { ...hunk, changes } : hunk
}

/** One chunk of a file's rows as its own table: re-rendered only when its rows, layout or colours change. */
const RowChunk = memo(function RowChunk(props: { hunks: HunkData[]; viewType: ViewType; diffType: DiffType; tokens: HunkTokens | null }) {
  return (
    <Diff viewType={props.viewType} diffType={props.diffType} hunks={props.hunks} tokens={props.tokens} className="dv-table">
      {(hs) => hs.map((h, i) => <Hunk key={`${i}:${h.content}`} hunk={h} />)}
    </Diff>
  )
})

/** A file's colours once they arrived, and how many of its chunks show them so far. */
interface Colours {
  of: HunkData[]
  tokens: HunkTokens
  chunks: number
}

/** Props: the file and the current view type. */
export function DiffFile({ file, viewType }: { file: DiffFile; viewType: ViewType }) {
  const [loaded, setLoaded] = useState(!file.large)
  const all = useMemo(() => (loaded ? file.data.hunks.map(withVisibleHidden) : []), [loaded, file])
  // the first screen's rows render at once; the rest follow one chunk per frame (each chunk its
  // own table, so a step renders only its own rows), after the first screen has been painted
  const chunks = useMemo(() => rowChunks(all, FIRST_SCREEN_ROWS).map(([from, to]) => sliceRows(all, from, to)), [all])
  const [shown, setShown] = useState(1)
  useEffect(() => {
    if (shown >= chunks.length) return
    return afterPaint(() => startTransition(() => setShown(shown + 1)))
  }, [shown, chunks.length])
  // colours are computed in a worker after the first paint, then applied one chunk per frame
  const [colours, setColours] = useState<Colours | null>(null)
  const current = colours?.of === all ? colours : null
  useEffect(() => {
    if (all.length === 0) return
    const abandon = new AbortController()
    const cancel = afterPaint(() => {
      void requestTokens(all, languageOf(file.path), abandon.signal).then((tokens) => {
        if (tokens && !abandon.signal.aborted) setColours({ of: all, tokens, chunks: 0 })
      })
    })
    return () => {
      abandon.abort()
      cancel()
    }
  }, [all, file.path])
  const coloured = current?.chunks ?? 0
  useEffect(() => {
    if (!current || coloured >= Math.min(shown, chunks.length)) return
    return afterPaint(() => startTransition(() => setColours((c) => c && { ...c, chunks: c.chunks + 1 })))
  }, [current, coloured, shown, chunks.length])
  const { data } = file
  return (
    <section className="dv-file" id={file.id} tabIndex={-1} aria-labelledby={`${file.id}-title`} data-testid="diff-file">
      <header className="dv-file-head" data-diff-row>
        <h3 id={`${file.id}-title`} className="dv-file-path">
          <Visible text={data.type === 'rename' ? `${data.oldPath} → ${data.newPath}` : file.path} />
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
          {chunks.slice(0, shown).map((hunks, i) => (
            <RowChunk key={i} hunks={hunks} viewType={viewType} diffType={data.type} tokens={i < coloured ? current!.tokens : null} />
          ))}
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
