/**
 * The pending requests, oldest first: one dense, virtualised row each (200 requests render as
 * the ~20 rows on screen), with the waiting time ticking every second.
 */
import { useEffect, useRef, type CSSProperties } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { ApprovalItem } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { displaySummary, formatWait, toolLabel, unansweredEnd } from './approval-format'
import { useMediaQuery } from '../../hooks/use-media-query'
import { useNow } from '../../hooks/use-now'
import { Visible } from '../../components/visible'

/** Row height in px (fixed, so the virtualiser needs no measuring): one line on wider screens. */
const ROW_H = 36
/**
 * On a phone a row has two lines (responsive.css): who and since when, then what the request is,
 * which one line there would cut to a dozen characters.
 */
const ROW_H_PHONE = 56
const PHONE = '(max-width: 640px)'
/** A request waiting longer than this is shown in the warning colour. */
const LONG_WAIT_MS = 120_000

/** The ticking waiting time of a request (and a hint when its hook is about to give up). */
export function WaitingTime({ item }: { item: ApprovalItem }) {
  const now = useNow(1000)
  const waited = now - Date.parse(item.created_at)
  const { hint } = unansweredEnd(item, now)
  return (
    <span
      className={`appr-wait${waited > LONG_WAIT_MS ? ' long' : ''}`}
      title={`waiting since ${item.created_at}${hint ? `; ${hint}` : ''}`}
    >
      <time dateTime={item.created_at}>{formatWait(waited)}</time>
    </span>
  )
}

function Row({ item, selected, style, onSelect }: { item: ApprovalItem; selected: boolean; style: CSSProperties; onSelect: () => void }) {
  return (
    <div
      role="row"
      aria-selected={selected}
      className={`table-row appr-row${selected ? ' selected' : ''}`}
      data-testid={`approval-row-${item.correlation_id}`}
      style={style}
      onClick={onSelect}
    >
      <span role="gridcell" className="ac-wait">
        <WaitingTime item={item} />
      </span>
      <span role="gridcell" className="ac-agent ellipsis" title={item.harness ? `${item.agent} (${item.harness})` : item.agent}>
        <Visible text={item.agent} />
      </span>
      <span
        role="gridcell"
        className="ac-project ellipsis"
        title={item.hub === item.palace ? item.project : `${item.project} on hub ${item.hub}`}
      >
        <Visible text={item.project} />
      </span>
      <span role="gridcell" className="ac-tool">
        <Chip tone="mono" title={item.tool_name}>
          {toolLabel(item.tool_name)}
        </Chip>
      </span>
      <span role="gridcell" className="ac-summary ellipsis mono" title={item.summary}>
        {item.test && (
          <Chip tone="accent" title="a test request from the Connect screen or muster connect --test: nothing runs either way">
            test
          </Chip>
        )}
        {item.budget && (
          <Chip tone="warning" title={`held: over budget ${item.budget.label}`}>
            over budget
          </Chip>
        )}{' '}
        <Visible text={displaySummary(item, true)} />
        {item.forged.length > 0 && (
          <Chip tone="error" title="a decision in this request's thread was not signed by a trusted operator: ignored">
            forged
          </Chip>
        )}
      </span>
      <span role="gridcell" className="ac-same">
        {item.identical > 1 && (
          <Chip tone="accent" title={`${item.identical} pending requests are identical (same tool and input)`}>
            ×{item.identical}
          </Chip>
        )}
      </span>
    </div>
  )
}

/** The list; the selected row is kept in view. */
export function PendingList({
  items,
  selectedIndex,
  onSelect
}: {
  items: readonly ApprovalItem[]
  selectedIndex: number
  onSelect: (index: number) => void
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const rowH = useMediaQuery(PHONE) ? ROW_H_PHONE : ROW_H
  // The virtualiser's functions are not memoisable; this component is small and re-renders cheaply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowH,
    overscan: 8
  })
  useEffect(() => virtualizer.measure(), [rowH, virtualizer])
  useEffect(() => {
    if (selectedIndex >= 0 && selectedIndex < items.length) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedIndex, items.length, virtualizer])
  return (
    <div
      className="table-list appr-table"
      role="grid"
      aria-label="Pending approval requests, oldest first"
      aria-rowcount={items.length}
      data-testid="approval-list"
    >
      <div role="row" className="table-row table-head appr-row appr-head">
        <span role="columnheader">Waiting</span>
        <span role="columnheader">Agent</span>
        <span role="columnheader">Project</span>
        <span role="columnheader">Tool</span>
        <span role="columnheader">Request</span>
        <span role="columnheader">
          <span className="sr-only">Identical</span>
        </span>
      </div>
      {/* the rows' group is the scrolling box: the keyboard reaches it (axe scrollable-region-focusable) */}
      <div ref={scrollRef} className="table-scroll appr-scroll" role="rowgroup" tabIndex={0}>
        <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index]!
            return (
              <Row
                key={item.id}
                item={item}
                selected={v.index === selectedIndex}
                style={{ transform: `translateY(${v.start}px)`, height: rowH }}
                onSelect={() => onSelect(v.index)}
              />
            )
          })}
        </div>
      </div>
    </div>
  )
}
