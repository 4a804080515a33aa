/** Small pieces of an event row and of the detail pane: time, type, status, route, correlation. */
import { Radio } from 'lucide-react'
import { BROADCAST, EventType } from '../../../../shared/api'
import { eventTypeKey } from '../../../../shared/event-type'
import { Chip, type ChipTone } from '../../components/chip'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'

/** Event time: `14:03:22` today, `Nov 29 14:03` before; the full UTC stamp in the tooltip. */
export function EventTime({ iso, className }: { iso: string; className?: string }) {
  const t = new Date(iso)
  const valid = !Number.isNaN(t.getTime())
  const today = valid && t.toDateString() === new Date().toDateString()
  const text = !valid
    ? iso
    : today
      ? t.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
      : `${t.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${t.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false })}`
  return (
    <time className={className ? `ev-time ${className}` : 'ev-time'} dateTime={iso} title={iso}>
      {text}
    </time>
  )
}

/** Colour family of an event type (compared trimmed and case-folded, as the hub stores it). */
export function typeFamily(raw: string): string {
  const type = eventTypeKey(raw)
  if (type.startsWith('task.')) return 'task'
  if (type.startsWith('patch.')) return 'patch'
  if (type === EventType.ack) return 'ack'
  if (type.startsWith('approval.')) return 'approval'
  if (type === EventType.status || type.startsWith('status.') || type.startsWith('presence')) return 'status'
  if (type.startsWith('ci.') || type.startsWith('review.')) return 'review'
  return 'other'
}

/** The event type as a coloured badge. */
export function TypeBadge({ type }: { type: string }) {
  return (
    <span className={`ev-type ev-type-${typeFamily(type)}`} title={visibleTitle(type)}>
      <Visible text={type} max={80} />
    </span>
  )
}

const STATUS_TONES: Record<string, ChipTone> = {
  open: 'accent',
  claimed: 'warning',
  ready: 'ok',
  applied: 'ok',
  blocked: 'error',
  failed: 'error',
  superseded: 'neutral',
  stuck: 'error'
}

/** The status as a chip; nothing for NULL. */
export function StatusBadge({ status, testId }: { status: string | null | undefined; testId?: string }) {
  if (!status) return null
  return (
    <Chip tone={STATUS_TONES[status] ?? 'neutral'} className={`ev-status ev-status-${status}`} data-testid={testId}>
      {status}
    </Chip>
  )
}

/** `from → to`; the broadcast `*` is shown as "all", NULL as a dash. */
export function Route({ from, to }: { from: string; to: string | null | undefined }) {
  return (
    <span className="ev-route">
      <span className="ev-agent ellipsis" title={visibleTitle(from)}>
        <Visible text={from} max={300} />
      </span>
      <span className="ev-arrow" aria-label="to">
        →
      </span>
      {to === BROADCAST ? (
        <span className="ev-broadcast" title="Broadcast: to_agent = * (every agent)">
          <Radio size={11} aria-hidden />
          all
        </span>
      ) : to ? (
        <span className="ev-agent ellipsis" title={visibleTitle(to)}>
          <Visible text={to} max={300} />
        </span>
      ) : (
        <span className="ev-none" title="No to_agent">
          —
        </span>
      )}
    </span>
  )
}

/** `stream / room / topic`, with the `project/` prefix shortened. */
export function Lane({ stream, room, topic }: { stream: string; room: string; topic: string | null | undefined }) {
  const full = [stream, room, topic].filter(Boolean).join(' / ')
  return (
    <span className="ev-lane ellipsis" title={visibleTitle(full)}>
      <span className="ev-stream">
        <Visible text={stream.replace(/^project\//, '')} max={300} />
      </span>
      <span className="ev-sep">/</span>
      <span>
        <Visible text={room} max={300} />
      </span>
      {topic && (
        <>
          <span className="ev-sep">/</span>
          <span className="ev-topic">
            <Visible text={topic} max={300} />
          </span>
        </>
      )}
    </span>
  )
}

/** A correlation id chip; clicking it opens the thread (a button; inside a listbox option, `inOption`, a clickable chip that takes no focus). */
export function CorrelationChip({
  id,
  onOpen,
  inOption = false
}: {
  id: string | null | undefined
  onOpen?: (id: string) => void
  inOption?: boolean
}) {
  if (!id) return null
  if (!onOpen) {
    return (
      <Chip tone="mono" title={visibleTitle(id)}>
        <Visible text={id} max={300} />
      </Chip>
    )
  }
  const chip = {
    className: 'chip chip-mono ev-corr',
    title: `Open the thread ${visibleTitle(id)} (t)`,
    onClick: (e: React.MouseEvent) => {
      e.stopPropagation()
      onOpen(id)
    },
    children: <Visible text={id} max={300} />
  }
  // inside a listbox option nothing may take focus (the option is the one interactive thing):
  // the chip opens the thread on a click; from the keyboard, `t` opens the selected row's thread
  return inOption ? <span {...chip} /> : <button type="button" {...chip} />
}
