/**
 * Decisions in a request's thread that no trusted operator key signed (an agent writing
 * `approval.decision` itself, a copied or edited event): never applied by the hook, shown here
 * with what they claim and who really wrote them.
 */
import type { ApprovalItem } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { Visible } from '../../components/visible'

/** The forged decisions of a request, or nothing. */
export function ForgedList({ item }: { item: Pick<ApprovalItem, 'forged'> }) {
  if (!item.forged.length) return null
  return (
    <ul className="appr-forged" data-testid="approval-forged">
      {item.forged.map((f) => (
        <li key={f.id}>
          <Chip tone="error">forged</Chip> <strong>{f.decision}</strong> claiming to be by{' '}
          <span className="mono">
            <Visible text={f.decided_by} />
          </span>
          , written by{' '}
          <strong className="mono" data-testid="forged-writer">
            <Visible text={f.from_agent} />
          </strong>{' '}
          <span className="muted">
            (<Visible text={f.why} />; ignored)
          </span>
        </li>
      ))}
    </ul>
  )
}
