/**
 * Above the Timeline: the hub is offline (a hub server out of reach, a token refused, a local file
 * missing or locked), with the reason, or read-only. An offline hub server still shows the events
 * Muster mirrored; it reconnects by itself and the list catches up with no gap.
 */
import { CloudOff, Lock } from 'lucide-react'
import { useHubInfo } from '../../api/hub-queries'

/** The banner for one hub (nothing while it is online and writable). */
export function HubStateBanner({ hub }: { hub: string | null }) {
  const info = useHubInfo(hub)
  if (!info || (info.online && !info.read_only)) return null
  return (
    <div className="tl-hub-state" role="status" data-testid="hub-state">
      {!info.online && (
        <p className="tl-hub-offline" data-testid="hub-offline">
          <CloudOff size={14} aria-hidden />
          <span>
            <strong>{info.kind === 'remote' ? 'Hub server offline' : 'Hub unreadable'}:</strong> {info.offline_reason ?? 'no answer'}.{' '}
            {info.kind === 'remote' ? 'Showing the events Muster already has; it reconnects by itself.' : 'Muster tries again by itself.'}
          </span>
        </p>
      )}
      {info.read_only && (
        <p className="tl-hub-read-only" data-testid="hub-read-only">
          <Lock size={14} aria-hidden />
          <span>
            <strong>Read-only:</strong> {info.read_only_reason ?? 'this hub refuses writes'}. Acks, replies and tasks are disabled.
          </span>
        </p>
      )}
    </div>
  )
}
