/** The live/reconnecting dot in the sidebar footer. */
import { transportKind } from '../api/client'
import { useConnectionStore } from '../api/connection-store'

const LABELS = { connecting: 'Connecting', live: 'Live', reconnecting: 'Reconnecting' } as const

/** Shows whether pushed updates are arriving, and over which transport. */
export function ConnectionStatus() {
  const status = useConnectionStore((s) => s.status)
  const since = useConnectionStore((s) => s.since)
  const web = location.protocol === 'https:' ? 'HTTPS' : 'HTTP'
  const via = transportKind === 'ipc' ? 'Electron IPC' : `${web} + SSE`
  const detail =
    status === 'live'
      ? `Live updates via ${via} since ${new Date(since).toLocaleTimeString()}`
      : status === 'reconnecting'
        ? `Lost the event stream (${via}); retrying. Data on screen may be stale.`
        : `Connecting to the event stream (${via})…`
  return (
    <div
      className={`connection connection-${status}`}
      data-testid="connection-status"
      data-status={status}
      title={detail}
      role="status"
      aria-live="polite"
    >
      <span className="connection-dot" aria-hidden />
      <span className="connection-label">{LABELS[status]}</span>
      <span className="connection-via">{transportKind === 'ipc' ? 'IPC' : web}</span>
    </div>
  )
}
