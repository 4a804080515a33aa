/** A patch's state (waiting / applied / failed / superseded / refused) as a coloured chip; a refused verification wins. */
import type { PatchState } from '../../../../shared/api'
import { Chip, type ChipTone } from '../../components/chip'

const TONE: Record<PatchState, ChipTone> = { waiting: 'accent', applied: 'ok', failed: 'error', superseded: 'neutral', refused: 'error' }

/** The chip. */
export function PatchStateBadge({ state, verdict }: { state: PatchState; verdict: 'ok' | 'warnings' | 'refused' }) {
  const shown: PatchState = verdict === 'refused' && state === 'waiting' ? 'refused' : state
  return (
    <Chip tone={TONE[shown]} data-testid="patch-state">
      {shown}
    </Chip>
  )
}
