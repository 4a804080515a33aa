/** The header's refresh button: refetches a query, its icon spinning while the query fetches. */
import { RefreshCw } from 'lucide-react'

/** A query the button refetches (a React Query result). */
interface Refetchable {
  refetch: () => unknown
  isFetching: boolean
}

/** An icon button that refetches `query`; `label` names it, `title` (default: the label) is its tooltip. */
export function RefreshButton({
  query,
  label,
  title = label,
  size = 14,
  disabled
}: {
  query: Refetchable
  label: string
  title?: string
  size?: number
  disabled?: boolean
}) {
  return (
    <button type="button" className="btn-icon" onClick={() => void query.refetch()} aria-label={label} title={title} disabled={disabled}>
      <RefreshCw size={size} className={query.isFetching ? 'spin' : undefined} />
    </button>
  )
}
