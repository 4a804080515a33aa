/**
 * The needs-you queue as a screen of its own: the phone's first screen (and the installed app's),
 * so a glance from the pocket shows who waits, for what and since when, longest wait first, each
 * row leading to where the operator acts on it. The Overview shows the same queue's first rows.
 */
import { useEffect } from 'react'
import { CircleAlert, CircleCheck, LayoutGrid } from 'lucide-react'
import { useNeeds } from '../../api/needs-queries'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState } from '../../components/state-views'
import { useNow } from '../../hooks/use-now'
import { openAfterNextPaint } from '../../lib/first-paint'
import { shortAge } from '../../lib/format'
import { NeedRow } from '../overview/needs-panel'

/** Placeholder rows while the queue is read. */
function SkeletonRows() {
  return (
    <div className="row-panel" role="status" aria-label="Loading the queue">
      {[0, 1, 2].map((i) => (
        <div key={i} className="needs-skeleton">
          <span className="sk sk-line" />
          <span className="sk sk-line short" />
        </div>
      ))}
    </div>
  )
}

/** The Needs you screen. */
export function NeedsScreen() {
  const needs = useNeeds()
  const now = useNow()
  const q = needs.data
  // the queue (or its error) is committed: what it does not need waits until it painted
  const settled = !needs.isPending
  useEffect(() => {
    if (settled) openAfterNextPaint()
  }, [settled])

  const summary = !q ? undefined : q.count > 0 ? (
    <span data-testid="needs-summary">
      <strong data-testid="needs-count">{q.count}</strong> waiting
      {q.oldest && (
        <>
          , the oldest for <strong data-testid="needs-oldest">{shortAge(q.oldest.since, now)}</strong>
        </>
      )}
      {q.unread.direct + q.unread.broadcast > 0 && (
        <>
          {' '}
          · {q.unread.direct} unread to you, {q.unread.broadcast} broadcast
        </>
      )}
    </span>
  ) : (
    <span data-testid="needs-summary">Nothing waits on you</span>
  )
  const actions = (
    <a className="btn" href="#/overview">
      <LayoutGrid size={14} aria-hidden /> Fleet overview
    </a>
  )

  return (
    <section className="screen needs-screen" data-testid="screen-needs">
      <ScreenHeader title="Needs you" description={summary} actions={actions} />
      {needs.isPending ? (
        <SkeletonRows />
      ) : !q ? (
        <ErrorState title="Could not read the queue" error={needs.error} onRetry={() => void needs.refetch()} retrying={needs.isFetching} />
      ) : (
        <>
          {q.sources
            .filter((s) => !s.ok)
            .map((s) => (
              <p key={s.source} className="needs-problem">
                <CircleAlert size={14} aria-hidden /> {s.source}: {s.error}
              </p>
            ))}
          {q.count === 0 ? (
            <EmptyState icon={<CircleCheck size={18} />} title="Nothing waits on you">
              New approvals, patches, tasks and messages for you show here as they arrive.
            </EmptyState>
          ) : (
            <div className="row-panel">
              <ul className="row-list needs-list" data-testid="needs-list" aria-label="Needs you, longest wait first">
                {q.items.map((i) => (
                  <NeedRow key={i.key} item={i} now={now} />
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  )
}
