/**
 * The Overview says plainly when nothing protects the approvals from the agents themselves: no
 * authenticator enrolled (or the presence policy off) means "an agent running as you can approve
 * its own calls", with the way to fix it one click away.
 */
import { ShieldAlert } from 'lucide-react'
import { usePresence } from '../../api/presence-queries'

/** The banner, or nothing once presence protects the approvals. */
export function PresenceBanner() {
  const q = usePresence()
  const warning = q.data?.warning
  if (!warning) return null
  const enrolled = q.data!.credentials.length > 0
  return (
    <p className="presence-banner" role="status" data-testid="presence-banner">
      <ShieldAlert size={16} aria-hidden />
      <span>
        <strong>{warning[0]!.toUpperCase() + warning.slice(1)}.</strong>{' '}
        <a href={enrolled ? '#/settings?presence=policy' : '#/settings?presence=enrol'}>
          {enrolled ? 'Choose a presence policy' : 'Enrol an authenticator'}
        </a>{' '}
        so only your presence approves.
      </span>
    </p>
  )
}
