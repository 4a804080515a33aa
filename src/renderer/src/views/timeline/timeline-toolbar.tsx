/** The Timeline header controls: hub picker, order toggle, live indicator, create task. */
import { ArrowDownWideNarrow, ArrowUpNarrowWide, ListPlus } from 'lucide-react'
import type { HubInfo } from '../../../../shared/api'
import { useConnectionStore } from '../../api/connection-store'
import { useWriteRefusal } from '../../api/hub-queries'
import { useTimelineStore } from '../../stores/timeline-store'

/** Hubs the picker offers: registered ones, plus MemPalace's default when it exists unregistered. */
export interface HubPickerChoice {
  /** Registered name, or null for the default hub. */
  name: string | null
  label: string
  palace: string
}

/** The choices of `hubs.list`. */
export function hubChoices(data: { hubs: HubInfo[]; default: HubInfo } | undefined): HubPickerChoice[] {
  if (!data) return []
  const out: HubPickerChoice[] = data.hubs.map((h) => ({ name: h.name, label: h.name, palace: h.palace }))
  if (data.default.exists && !data.default.registered) out.push({ name: null, label: 'default (MemPalace)', palace: data.default.palace })
  return out
}

/** A select when there are several hubs, the hub's name otherwise. */
export function HubPicker({ choices, value }: { choices: HubPickerChoice[]; value: string | null }) {
  const setHub = useTimelineStore((s) => s.setHub)
  if (choices.length < 2) {
    const only = choices[0]
    return only ? (
      <span className="tl-hub-name" title={only.palace} data-testid="timeline-hub">
        {only.label}
      </span>
    ) : null
  }
  return (
    <select
      className="input tl-hub-select"
      value={value ?? ''}
      onChange={(e) => setHub(e.target.value || null)}
      aria-label="Hub"
      data-testid="timeline-hub"
    >
      {choices.map((c) => (
        <option key={c.name ?? ''} value={c.name ?? ''} title={c.palace}>
          {c.label}
        </option>
      ))}
    </select>
  )
}

/** Newest-first / oldest-first toggle. */
export function OrderToggle() {
  const order = useTimelineStore((s) => s.query.order)
  const setOrder = useTimelineStore((s) => s.setOrder)
  const desc = order === 'desc'
  return (
    <button
      type="button"
      className="btn"
      onClick={() => setOrder(desc ? 'asc' : 'desc')}
      data-testid="timeline-order"
      data-order={order}
      title={desc ? 'Newest first; click for oldest first' : 'Oldest first; click for newest first'}
    >
      {desc ? <ArrowDownWideNarrow size={14} aria-hidden /> : <ArrowUpNarrowWide size={14} aria-hidden />}
      {desc ? 'Newest first' : 'Oldest first'}
    </button>
  )
}

/**
 * Live / reconnecting (Muster's own event stream), or hub offline (the hub cannot be read: a hub
 * server out of reach); the dot flashes (CSS animation, restarted by its key) when rows arrive.
 */
export function LiveIndicator({
  lastLiveAt,
  liveCount,
  hubOffline = false
}: {
  lastLiveAt: number
  liveCount: number
  hubOffline?: boolean
}) {
  const connection = useConnectionStore((s) => s.status)
  const status = connection === 'live' && hubOffline ? 'reconnecting' : connection
  const label =
    connection === 'live' ? (hubOffline ? 'Hub offline' : 'Live') : connection === 'reconnecting' ? 'Reconnecting' : 'Connecting'
  return (
    <span
      className={`tl-live tl-live-${status}`}
      data-testid="timeline-live"
      data-status={status}
      data-live-count={liveCount}
      role="status"
      title={
        status === 'live'
          ? 'Rows written by any agent appear as they land'
          : hubOffline
            ? 'The hub cannot be reached; new rows appear when it is back'
            : 'The event stream is down; the list may be stale'
      }
    >
      <span key={lastLiveAt} className={`tl-live-dot${lastLiveAt ? ' flash' : ''}`} aria-hidden />
      {label}
      {liveCount > 0 && (
        <span className="tl-live-count" title="Rows that arrived live since this view opened">
          +{liveCount}
        </span>
      )}
    </span>
  )
}

/** Opens the create-task pane (disabled, with the reason, on a read-only hub). */
export function CreateTaskButton({ hub }: { hub: string | null }) {
  const setAction = useTimelineStore((s) => s.setAction)
  const refusal = useWriteRefusal(hub)
  return (
    <button
      type="button"
      className="btn btn-primary"
      onClick={() => setAction('task')}
      disabled={!!refusal}
      data-testid="create-task"
      title={refusal ? `Read-only hub: ${refusal}` : 'Create a task request (n)'}
    >
      <ListPlus size={14} aria-hidden /> New task
    </button>
  )
}
