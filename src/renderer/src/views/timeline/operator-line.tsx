/** "Acting as <operator>" above every hub action, with a link to change it in Settings. */
import { UserRound } from 'lucide-react'
import { useSettings } from '../../api/queries'
import { useUiStore } from '../../stores/ui-store'

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
