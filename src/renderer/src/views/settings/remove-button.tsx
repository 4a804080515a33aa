/** A settings list row's Remove button, which asks first: a confirmation bar with Remove and Cancel. */
import type { ReactNode } from 'react'
import { LoaderCircle, Trash2 } from 'lucide-react'
import { CancelButton } from '../../components/cancel-button'

/** Props of `RemoveButton`. */
export interface RemoveButtonProps {
  /** The confirmation bar is shown (instead of the button). */
  confirming: boolean
  /** The button was pressed: show the confirmation. */
  onAsk: () => void
  /** The confirmation was cancelled. */
  onCancel: () => void
  /** Remove was confirmed. */
  onConfirm: () => void
  /** The removal is under way: the confirm button is disabled (and spins with `spin`). */
  busy: boolean
  spin?: boolean
  /** What the confirmation asks. */
  question: ReactNode
  /** The confirmation group's accessible name. */
  groupLabel: string
  /** Test ids of the button and of the confirm button. */
  testId: string
  confirmTestId: string
}

/** Remove, then "question? Remove / Cancel". */
export function RemoveButton({
  confirming,
  onAsk,
  onCancel,
  onConfirm,
  busy,
  spin,
  question,
  groupLabel,
  testId,
  confirmTestId
}: RemoveButtonProps) {
  if (!confirming)
    return (
      <button type="button" className="btn btn-ghost" data-testid={testId} onClick={onAsk}>
        <Trash2 size={14} aria-hidden /> Remove
      </button>
    )
  return (
    <span className="confirm" role="group" aria-label={groupLabel}>
      <span>{question}</span>
      <button type="button" className="btn btn-danger" autoFocus data-testid={confirmTestId} disabled={busy} onClick={onConfirm}>
        {spin && busy ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Trash2 size={14} aria-hidden />} Remove
      </button>
      <CancelButton onClick={onCancel} />
    </span>
  )
}
