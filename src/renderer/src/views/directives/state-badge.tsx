/** The state of a directive as a chip: 🟡 pending, received, ✅ delivered, or untracked. */
import type { DirectiveOccurrence, DirectiveState } from '../../../../shared/api'
import { Chip, type ChipTone } from '../../components/chip'

type Mark = DirectiveOccurrence['mark']

const LOOK: Record<DirectiveState, { tone: ChipTone; label: string; title: string }> = {
  pending: { tone: 'warning', label: '🟡 pending', title: '🟡 at the source and no receipt at the target: needs pickup' },
  received: { tone: 'accent', label: '📥 received', title: 'The target wrote a receipt, but the source line is still 🟡' },
  delivered: { tone: 'ok', label: '✅ delivered', title: '✅ at the source: picked up and passed on' },
  untracked: { tone: 'neutral', label: 'untracked', title: 'No 🟡 or ✅ written anywhere (older loose form)' }
}

/** A directive's cross-project state. */
export function DirectiveStateBadge({ state, testId }: { state: DirectiveState; testId?: string }) {
  const look = LOOK[state]
  return (
    <Chip tone={look.tone} title={look.title} className="state-badge" data-testid={testId} data-state={state}>
      {look.label}
    </Chip>
  )
}

/** The status emoji written on one line of one file (what a role file itself says). */
export function MarkBadge({ mark }: { mark: Mark }) {
  if (mark === 'pending')
    return (
      <Chip tone="warning" title="🟡 written on this line">
        🟡
      </Chip>
    )
  if (mark === 'done')
    return (
      <Chip tone="ok" title="✅ written on this line">
        ✅
      </Chip>
    )
  return (
    <Chip title="No status emoji on this line" className="mark-none">
      –
    </Chip>
  )
}
