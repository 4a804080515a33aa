/**
 * The commits carrying notes, virtualised (a repository may hold 10,000 noted commits): sha,
 * subject, which agents wrote, how many notes, promote/archive flags, findings, merged or not.
 * Arrow keys move the selection; the list is one listbox.
 */
import { listKeyTarget } from '../../lib/list-keys'
import { useEffect, useRef, type KeyboardEvent } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowUpFromLine, Archive, CircleAlert, GitBranch, TriangleAlert } from 'lucide-react'
import { Chip } from '../../components/chip'
import { Keys } from '../../components/kbd'
import { plural, shortAge } from '../../lib/format'
import { shortSha, type CommitRow } from './notes-model'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'

/** Row height in px (keep in sync with `.nl-row` in notes.css). */
const ROW = 34
/** Namespace chips shown per row; the rest is a "+N" (the cell's tooltip lists all). */
const SHOWN_AGENTS = 2

function Row({ row, selected, top, onSelect, now }: { row: CommitRow; selected: boolean; top: number; onSelect: () => void; now: number }) {
  const c = row.commit
  return (
    <div
      id={`nl-opt-${c.sha}`}
      role="option"
      aria-selected={selected}
      className={`table-row nl-row${selected ? ' selected' : ''}${c.merged ? '' : ' nl-unmerged'}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={onSelect}
      data-testid="notes-commit"
      data-sha={c.sha}
    >
      <span className="mono nl-sha">{shortSha(c.sha)}</span>
      <span className="nl-subject" title={c.subject ? visibleTitle(c.subject) : undefined}>
        <span className="ellipsis">
          {c.subject ? <Visible text={c.subject} /> : <em className="muted">commit not in this repository</em>}
        </span>
        {!c.merged && (
          <span className="nl-branch" title="Not reachable from the default branch">
            <GitBranch size={11} aria-hidden /> not merged
          </span>
        )}
      </span>
      <span className="nl-agents" title={visibleTitle(row.namespaces.join(', '))}>
        {row.namespaces.slice(0, SHOWN_AGENTS).map((ns) => (
          <Chip key={ns} tone="mono">
            <Visible text={ns} max={200} />
          </Chip>
        ))}
        {row.namespaces.length > SHOWN_AGENTS && <span className="nl-more">+{row.namespaces.length - SHOWN_AGENTS}</span>}
      </span>
      <span className="nl-count num">{row.notes}</span>
      <span className="nl-flags">
        {row.promote > 0 && (
          <span className="nl-flag nl-promote" title={`${row.promote} to promote into decisions.md`}>
            <ArrowUpFromLine size={12} aria-hidden />
            {row.promote}
          </span>
        )}
        {row.archive > 0 && (
          <span className="nl-flag" title={`${row.archive} to archive under research/ if never merged`}>
            <Archive size={12} aria-hidden />
            {row.archive}
          </span>
        )}
        {row.errors > 0 && (
          <span className="nl-flag text-error" title={`${row.errors} error finding(s)`}>
            <CircleAlert size={12} aria-hidden />
            {row.errors}
          </span>
        )}
        {row.warnings > 0 && (
          <span className="nl-flag nl-warn" title={`${row.warnings} warning(s)`}>
            <TriangleAlert size={12} aria-hidden />
            {row.warnings}
          </span>
        )}
      </span>
      <span className="nl-date" title={c.date ?? undefined}>
        {c.date ? shortAge(c.date, now) : '—'}
      </span>
    </div>
  )
}

/** The list; `selected` is a sha. */
export function CommitList({
  rows,
  selected,
  onSelect
}: {
  rows: readonly CommitRow[]
  selected: string | null
  onSelect: (sha: string) => void
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 10
  })
  const index = rows.findIndex((r) => r.commit.sha === selected)
  const now = Date.now()

  useEffect(() => {
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' })
  }, [index, virtualizer])

  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const next = listKeyTarget(e.key, index, rows.length)
    if (next === null) return
    e.preventDefault()
    onSelect(rows[next]!.commit.sha)
  }

  return (
    <div className="table-list nl-wrap">
      <div className="table-row table-head nl-row nl-head" aria-hidden>
        <span>Commit</span>
        <span>Subject</span>
        <span>Notes by</span>
        <span className="num">Notes</span>
        <span>Flags</span>
        <span>Date</span>
      </div>
      <div
        ref={scrollRef}
        className="table-scroll nl-scroll"
        role="listbox"
        tabIndex={0}
        aria-label="Commits with notes"
        aria-activedescendant={
          // only an option that is rendered (the list is virtual: a far one is not in the DOM yet)
          selected && index >= 0 && virtualizer.getVirtualItems().some((v) => v.index === index) ? `nl-opt-${selected}` : undefined
        }
        onKeyDown={onKey}
        data-testid="notes-commits"
        data-count={rows.length}
      >
        <div className="nl-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!
            return (
              <Row
                key={row.commit.sha}
                row={row}
                top={item.start}
                selected={row.commit.sha === selected}
                onSelect={() => onSelect(row.commit.sha)}
                now={now}
              />
            )
          })}
        </div>
      </div>
      <div className="nl-foot">
        <span>
          {plural(rows.length, 'commit')} ·{' '}
          {plural(
            rows.reduce((n, r) => n + r.notes, 0),
            'note'
          )}
        </span>
        <span className="keys-hint">
          <Keys keys={['j']} />
          <Keys keys={['k']} /> move
        </span>
      </div>
    </div>
  )
}
