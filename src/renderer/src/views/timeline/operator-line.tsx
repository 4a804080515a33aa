/**
 * "Acting as <operator>" above every hub action, with a link to change it in Settings, and why
 * writes are refused when the hub is read-only; the action forms' buttons, disabled then.
 */
import type { ReactNode } from 'react'
import { Lock, UserRound, type LucideIcon } from 'lucide-react'
import { SubmitButton } from '../../components/action-button'
import { CancelButton } from '../../components/cancel-button'
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

/**
 * A hub action form's submit and Cancel buttons (after `before`, when given). Submit is disabled
 * until the form is `ready`, while no operator id is set, and while the hub refuses writes (the
 * refusal is its title).
 */
export function WriteButtons({
  hub,
  busy,
  icon,
  ready = true,
  testId,
  onCancel,
  before,
  children
}: {
  hub: string | null
  busy: boolean
  icon: LucideIcon
  ready?: boolean
  testId: string
  onCancel: () => void
  before?: ReactNode
  children: ReactNode
}) {
  const operator = useOperatorId()
  const refusal = useWriteRefusal(hub)
  return (
    <div className="tl-action-buttons">
      {before}
      <SubmitButton busy={busy} icon={icon} disabled={!ready || !operator || !!refusal} title={refusal} testId={testId}>
        {children}
      </SubmitButton>
      <CancelButton onClick={onCancel} />
    </div>
  )
}

/** The operator id, or '' while unknown. */
export function useOperatorId(): string {
  return useSettings().data?.operatorId ?? ''
}
