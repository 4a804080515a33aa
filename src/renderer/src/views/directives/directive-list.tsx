/** The dense, virtualised list of directives: one 30 px row each, header row sticky. */
import { useEffect, useRef, type CSSProperties } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowRight } from 'lucide-react'
import type { Directive } from '../../../../shared/api'
import { directiveRowTestId, primaryOccurrence } from './directive-model'
import { DirectiveStateBadge } from './state-badge'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

/** Row height in px; rows are single-line so the virtualiser can use a fixed size. */
const ROW_H = 30

function Route({ d }: { d: Directive }) {
  const src = d.source ?? primaryOccurrence(d)
  return (
    <span className="dir-route">
      <span
        className="dir-from ellipsis"
        title={src ? visibleTitle(`${src.project} · ${src.role}`) : 'sender unknown (only a receipt was found)'}
      >
        {src ? (
          <>
            <span className="dir-proj">
              <Visible text={src.project} />
            </span>
            <span className="dir-sep">/</span>
            {d.source ? <Visible text={src.role} /> : '?'}
          </>
        ) : (
          '?'
        )}
      </span>
      <ArrowRight size={12} aria-hidden className="dir-arrow" />
      <span
        className={`dir-target mono ellipsis${d.resolution.kind === 'unresolved' ? ' text-error' : ''}`}
        title={visibleTitle(d.resolution.kind === 'unresolved' ? d.resolution.reason : d.target)}
      >
        <Visible text={d.target} />
      </span>
    </span>
  )
}

/** One directive row. */
function Row({
  d,
  selected,
  style,
  onSelect,
  onOpen
}: {
  d: Directive
  selected: boolean
  style: CSSProperties
  onSelect: () => void
  onOpen: () => void
}) {
  const src = primaryOccurrence(d)
  return (
    <div
      role="row"
      aria-selected={selected}
      className={`table-row dir-row dir-row-${d.state}${selected ? ' selected' : ''}`}
      data-testid={directiveRowTestId(d)}
      data-state={d.state}
      style={style}
      onClick={onSelect}
      onDoubleClick={onOpen}
    >
      <span role="gridcell" className="dc-state">
        <DirectiveStateBadge state={d.state} />
      </span>
      <span role="gridcell" className="dc-id mono">
        {d.id}
      </span>
      <span role="gridcell" className="dc-route">
        <Route d={d} />
      </span>
      <span role="gridcell" className="dc-title ellipsis" title={visibleTitle(d.title)}>
        {d.title ? <Visible text={d.title} /> : <span className="muted">(no title)</span>}
      </span>
      <span role="gridcell" className="dc-date ellipsis" title={src?.date ?? undefined}>
        {src?.date ?? <span className="faint">—</span>}
      </span>
      <span
        role="gridcell"
        className="dc-file mono ellipsis"
        title={src ? visibleTitle(`${src.project}/.muse/${src.file}:${src.line}`) : undefined}
      >
        {src ? <Visible text={`${src.file}:${src.line}`} /> : '—'}
      </span>
    </div>
  )
}

/** The list; `selectedIndex` is kept in view when it changes (keyboard navigation). */
export function DirectiveList({
  items,
  selectedIndex,
  onSelect,
  onOpen
}: {
  items: readonly Directive[]
  selectedIndex: number
  onSelect: (index: number) => void
  onOpen: (index: number) => void
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // The virtualiser's functions are not memoisable; this component is small and re-renders cheaply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 12
  })

  useEffect(() => {
    if (selectedIndex >= 0 && selectedIndex < items.length) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedIndex, items.length, virtualizer])

  return (
    <div className="table-list dir-table" role="grid" aria-label="Directives" aria-rowcount={items.length} data-testid="directive-list">
      <div role="row" className="table-row table-head dir-row dir-head">
        <span role="columnheader">State</span>
        <span role="columnheader">Id</span>
        <span role="columnheader">From → target</span>
        <span role="columnheader">Title</span>
        <span role="columnheader">Date</span>
        <span role="columnheader">Source line</span>
      </div>
      {/* the rows' group is the scrolling box: the keyboard reaches it (axe scrollable-region-focusable) */}
      <div ref={scrollRef} className="table-scroll dir-scroll" role="rowgroup" tabIndex={0}>
        <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const d = items[v.index]!
            return (
              <Row
                key={d.key}
                d={d}
                selected={v.index === selectedIndex}
                style={{ transform: `translateY(${v.start}px)`, height: ROW_H }}
                onSelect={() => onSelect(v.index)}
                onOpen={() => onOpen(v.index)}
              />
            )
          })}
        </div>
      </div>
    </div>
  )
}
