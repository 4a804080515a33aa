/**
 * How far a request got, in the operator's words: the inbox, the history and `muster approvals
 * list` say the same. A delivered allow whose session ended before the call ran says so.
 * Plain TypeScript (no Node): the renderer, the core and the CLI share it.
 */
import type { ApprovalItem } from '../contract/approvals-types'

/** One request's stage as a short phrase (`ran`, `delivered`, `never ran (withdrawn)`, ...). */
export function stageWords(item: Pick<ApprovalItem, 'stage' | 'outcome' | 'state'>): string {
  switch (item.stage) {
    case 'asked':
      return 'asked'
    case 'decided':
      return 'decided, not yet delivered'
    case 'delivered':
      return 'delivered'
    case 'done':
      return item.outcome ?? 'done'
    case 'withdrawn':
      return item.state === 'allow' ? 'never ran (withdrawn)' : 'withdrawn'
    case 'not_delivered':
      return 'not delivered'
    default:
      return '-'
  }
}
