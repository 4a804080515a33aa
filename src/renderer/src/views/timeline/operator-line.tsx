/**
 * "Acting as <operator>" above every hub action, with a link to change it in Settings, and why
 * writes are refused when the hub is read-only (its forms are disabled then).
 */
import { Lock, UserRound } from 'lucide-react'
import { useWriteRefusal } from '../../api/hub-queries'
import { useSettings } from '../../api/queries'
import { useUiStore } from '../../stores/ui-store'

/** Why this hub refuses writes, as a line above its write actions (nothing when it accepts them). */
export function ReadOnlyNote({ hub }: { hub: string | null }) {
  const refusal = useWriteRefusal(hub)
  if (!refusal) return null
  return (
    <p className="tl-read-only" role="note" data-testid="read-only-note">
      <Lock size={13} aria-hidden /> Read-only hub: {refusal}. Acks, replies and tasks are disabled.
    </p>
  )
}

/** The operator id from settings; actions are disabled by their forms while it is missing. */
export function OperatorLine() {
  const settings = useSettings()
  const navigate = useUiStore((s) => s.navigate)
  const id = settings.data?.operatorId
  return (
    <p className="tl-operator" data-testid="operator-line">
      <UserRound size={13} aria-hidden />
      {id ? (
        <>
          Acting as <code>{id}</code>
        </>
      ) : (
        <span className="text-error">No operator id set</span>
      )}
      <button type="button" className="link-btn" onClick={() => navigate('settings')}>
        {id ? 'change in Settings' : 'set it in Settings'}
      </button>
    </p>
  )
}

/** The operator id, or '' while unknown. */
export function useOperatorId(): string {
  return useSettings().data?.operatorId ?? ''
}
