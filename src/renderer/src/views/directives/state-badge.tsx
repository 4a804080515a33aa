/** The state of a directive as a chip: 🟡 pending, received, ✅ delivered, 🚫 skipped, 🔒 frozen, 🟢 active, or untracked. */
import type { DirectiveOccurrence, DirectiveState } from '../../../../shared/api'
import { Chip, type ChipTone } from '../../components/chip'

type Mark = DirectiveOccurrence['mark']

const LOOK: Record<DirectiveState, { tone: ChipTone; label: string; title: string }> = {
  pending: { tone: 'warning', label: '🟡 pending', title: '🟡 at the source and no receipt at the target: needs pickup' },
  received: { tone: 'accent', label: '📥 received', title: 'The target wrote a receipt, but the source line is still 🟡' },
  delivered: { tone: 'ok', label: '✅ delivered', title: '✅ at the source: picked up and passed on' },
  skipped: { tone: 'neutral', label: '🚫 skipped', title: '🚫 written for it: the target will not carry it out' },
  frozen: { tone: 'neutral', label: '🔒 frozen', title: '🔒 written for it: on hold until unfrozen' },
  active: { tone: 'accent', label: '🟢 active', title: '🟢 written for it: being carried out' },
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
  const own = { skipped: '🚫', frozen: '🔒', active: '🟢' } as const
  if (mark === 'skipped' || mark === 'frozen' || mark === 'active')
    return (
      <Chip tone={mark === 'active' ? 'accent' : 'neutral'} title={`${own[mark]} (${mark}) written on this line`}>
        {own[mark]}
      </Chip>
    )
  return (
    <Chip title="No status emoji on this line" className="mark-none">
      –
    </Chip>
  )
}
