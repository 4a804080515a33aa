/**
 * The virtualised event list: only the rows in view (plus a little overscan) exist in the DOM,
 * and only their pages are fetched. In newest-first mode, live rows that arrive while the operator
 * is scrolled down wait behind an "N new events" pill instead of pushing the rows away.
 */
import { useCallback, useEffect, useImperativeHandle, useRef, type Ref } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowUp } from 'lucide-react'
import { plural } from '../../lib/format'
import type { EventWindow, WindowSnapshot } from './event-window'
import type { TimelineEvent } from './hub-types'
import { ROW_HEIGHT, SkeletonRow, TimelineRow } from './timeline-row'

/** What the screen can do to the list. */
export interface TimelineListHandle {
  /** Scrolls so display index `i` is visible. */
  scrollToIndex: (i: number) => void
  /** True when the first row is in view. */
  atTop: () => boolean
  focus: () => void
}

/** The list with its column header and the new-events pill. */
export function TimelineList({
  ref,
  win,
  snap,
  selectedId,
  onSelect,
  onOpen,
  onThread,
  onShowPending,
  taskStates
}: {
  ref?: Ref<TimelineListHandle>
  win: EventWindow<TimelineEvent>
  snap: WindowSnapshot
  selectedId: string | null
  onSelect: (id: string, index: number) => void
  onOpen: (id: string) => void
  onThread: (correlationId: string) => void
  onShowPending: () => void
  /** Folded state per task (correlation id): the status a task.request row shows. */
  taskStates?: ReadonlyMap<string, string>
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  // The virtualizer is not memoizable by the React Compiler; this component does not need it to be.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: snap.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0

  useEffect(() => {
    win.ensureRange(first, last)
  }, [win, first, last, snap.version])

  useImperativeHandle(
    ref,
    () => ({
      scrollToIndex: (i) => virtualizer.scrollToIndex(i, { align: 'auto' }),
      atTop: () => (scrollRef.current?.scrollTop ?? 0) < ROW_HEIGHT / 2,
      focus: () => scrollRef.current?.focus({ preventScroll: true })
    }),
    [virtualizer]
  )

  const showPending = useCallback(() => {
    onShowPending()
    scrollRef.current?.scrollTo({ top: 0 })
  }, [onShowPending])

  return (
    <div className="split-main tl-list-wrap">
      <div className="tl-row tl-head" aria-hidden>
        <span>Time</span>
        <span>Type</span>
        <span>From → to</span>
        <span>Stream / room</span>
        <span>Status</span>
        <span>Body</span>
        <span>Correlation</span>
      </div>
      {snap.pending > 0 && win.order === 'desc' && (
        <button type="button" className="tl-pending" onClick={showPending} data-testid="timeline-new-pill">
          <ArrowUp size={13} aria-hidden /> {plural(snap.pending, 'new event')}
        </button>
      )}
      <div
        ref={scrollRef}
        className="tl-scroll"
        role="listbox"
        tabIndex={0}
        aria-label="Hub events"
        aria-activedescendant={selectedId ? `tl-opt-${selectedId}` : undefined}
        data-testid="timeline-list"
        data-count={snap.count}
      >
        <div className="tl-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const event = win.rowAt(item.index)
            return event ? (
              <TimelineRow
                key={event.id}
                event={event}
                index={item.index}
                top={item.start}
                selected={event.id === selectedId}
                fresh={event.seq > win.snapshotHead}
                onSelect={onSelect}
                onOpen={onOpen}
                onThread={onThread}
                taskState={event.type === 'task.request' && event.correlation_id ? taskStates?.get(event.correlation_id) : undefined}
              />
            ) : (
              <SkeletonRow key={`sk-${item.index}`} top={item.start} index={item.index} />
            )
          })}
        </div>
      </div>
    </div>
  )
}
