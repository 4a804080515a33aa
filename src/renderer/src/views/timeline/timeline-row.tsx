/** One fixed-height row of the timeline (or its skeleton while the page loads). */
import { memo } from 'react'
import { BROADCAST } from '../../../../shared/api'
import { OUT_OF_SEQUENCE, OUT_OF_SEQUENCE_WHY, outOfSequence } from '../../../../shared/hub-sequence'
import { CorrelationChip, EventTime, Lane, Route, StatusBadge, TypeBadge } from './event-bits'
import type { TimelineEvent } from './hub-types'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

/** Row height in px; fixed so 1,000,000 rows need no measuring (28 px × 1e6 fits Chromium's limit). */
export const ROW_HEIGHT = 28

/** A loaded row. */
export const TimelineRow = memo(function TimelineRow({
  event,
  index,
  top,
  selected,
  fresh,
  onSelect,
  onOpen,
  onThread,
  taskState
}: {
  event: TimelineEvent
  index: number
  top: number
  selected: boolean
  /** Arrived live after the list opened: flashes once. */
  fresh: boolean
  onSelect: (id: string, index: number) => void
  onOpen: (id: string) => void
  onThread: (correlationId: string) => void
  /** A task.request's folded task state (what the task is now, not the request's own "open"). */
  taskState?: string | undefined
}) {
  return (
    <div
      role="option"
      id={`tl-opt-${event.id}`}
      aria-selected={selected}
      className={`tl-row${selected ? ' selected' : ''}${fresh ? ' fresh' : ''}${event.to_agent === BROADCAST ? ' tl-broadcast' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid={`timeline-row-${event.id}`}
      data-index={index}
      onClick={() => onSelect(event.id, index)}
      onDoubleClick={() => onOpen(event.id)}
    >
      <RowCells event={event} onThread={onThread} taskState={taskState} />
    </div>
  )
})

/**
 * The cells of a row: they depend on the event alone, so when a live row arrives on top and every
 * row below moves down (a new `index` and `top`), only the rows' positions render again.
 */
const RowCells = memo(function RowCells({
  event,
  onThread,
  taskState
}: {
  event: TimelineEvent
  onThread: (correlationId: string) => void
  taskState?: string | undefined
}) {
  // line breaks, tabs and runs of spaces fold into one space; a lone carriage return stays, marked
  const preview = event.body.replace(/(?:\r\n|[\n\t ])+/g, ' ').trim()
  return (
    <>
      <EventTime iso={event.created_at} />
      <TypeBadge type={event.type} />
      <Route from={event.from_agent} to={event.to_agent} />
      <Lane stream={event.stream} room={event.room} topic={event.topic} />
      <span
        className="tl-status"
        title={taskState ? `task ${taskState} (this request was ${event.status ?? 'without status'})` : undefined}
      >
        <StatusBadge status={taskState ?? event.status} testId={taskState ? 'task-state' : undefined} />
      </span>
      <span
        className="tl-body ellipsis"
        title={event.body_truncated ? `${visibleTitle(preview)}… (${event.body_length} characters)` : visibleTitle(preview)}
      >
        {outOfSequence(event.seq) && (
          <span className="tl-out-of-sequence" title={OUT_OF_SEQUENCE_WHY} data-testid="out-of-sequence">
            {OUT_OF_SEQUENCE}
          </span>
        )}
        {preview ? <Visible text={preview} max={400} /> : <span className="faint">(empty body)</span>}
      </span>
      <span className="tl-corr">
        <CorrelationChip id={event.correlation_id} onOpen={onThread} inOption />
      </span>
    </>
  )
})

/** A placeholder row while its page is on its way. */
export function SkeletonRow({ top, index }: { top: number; index: number }) {
  return (
    <div className="tl-row tl-skeleton" style={{ transform: `translateY(${top}px)` }} aria-hidden data-index={index}>
      <span className="sk" style={{ width: 56 }} />
      <span className="sk" style={{ width: 84 }} />
      <span className="sk" style={{ width: 150 }} />
      <span className="sk" style={{ width: 120 }} />
      <span />
      <span className="sk" style={{ width: `${35 + ((index * 37) % 45)}%` }} />
      <span />
    </div>
  )
}
