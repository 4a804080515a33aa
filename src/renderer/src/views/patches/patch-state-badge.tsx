/** A patch's state (waiting / applied / failed / superseded / refused) as a coloured chip; a refused verification wins. */
import type { PatchState } from '../../../../shared/api'
import { Chip, type ChipTone } from '../../components/chip'

const TONE: Record<PatchState, ChipTone> = { waiting: 'accent', applied: 'ok', failed: 'error', superseded: 'neutral', refused: 'error' }

/** The chip; a `superseded` only Muster's rule says (no hub event) is labelled as Muster's view. */
export function PatchStateBadge({
  state,
  verdict,
  byMuster = false
}: {
  state: PatchState
  verdict: 'ok' | 'warnings' | 'refused'
  byMuster?: boolean
}) {
  const shown: PatchState = verdict === 'refused' && state === 'waiting' ? 'refused' : state
  const musterView = byMuster && shown === 'superseded'
  return (
    <Chip
      tone={TONE[shown]}
      data-testid="patch-state"
      title={
        musterView ? "Muster's view: the sender posted a newer patch in this thread; no hub event marks this one superseded" : undefined
      }
    >
      {musterView ? 'superseded (Muster’s view)' : shown}
    </Chip>
  )
}
