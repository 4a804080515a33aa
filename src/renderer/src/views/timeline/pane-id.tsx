/** The end of a Timeline side pane's header: what the pane shows (an id, copyable) and its close button. */
import { X } from 'lucide-react'
import { CopyButton } from '../../components/copy-button'
import { useTimelineStore } from '../../stores/timeline-store'

/** The pane's id with a copy button, then (pushed right) the button that closes the pane (Esc does too). */
export function PaneIdAndClose({ id, copyLabel }: { id: string; copyLabel: string }) {
  return (
    <>
      <span className="tl-pane-id mono ellipsis" title={id}>
        {id}
      </span>
      <CopyButton text={id} label={copyLabel} />
      <span className="card-spacer" />
      <button
        type="button"
        className="btn-icon"
        onClick={() => useTimelineStore.setState({ pane: null, action: null })}
        aria-label="Close (Esc)"
        title="Close (Esc)"
      >
        <X size={15} />
      </button>
    </>
  )
}
