/**
 * One correlation id as a lifecycle: request → claimed → ready → applied / failed / blocked /
 * superseded, each step with who and when, the folded task state, and "stuck" when a claimed task
 * has not reached an end.
 */
import { AlertTriangle, CheckCheck, GitBranch, Reply } from 'lucide-react'
import { EventType } from '../../../../shared/api'
import { useThread, useWriteRefusal } from '../../api/hub-queries'
import { Chip } from '../../components/chip'
import { RelativeTime } from '../../components/relative-time'
import { ErrorState, LoadingState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { useTimelineStore } from '../../stores/timeline-store'
import { PaneIdAndClose } from './pane-id'
import { EventTime, Route, StatusBadge } from './event-bits'
import { Visible } from '../../components/visible'

/** How long a stuck task has waited, "3 h 20 min". */
function duration(ms: number): string {
  const m = Math.round(ms / 60000)
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`
  return `${Math.round(h / 24)} d`
}

/** What a step means in the lifecycle, from its type and status. */
export function stepLabel(type: string, status: string | null): string {
  if (type === EventType.taskRequest) return 'request'
  if (type === EventType.patchReady) return 'patch ready'
  if (type === EventType.ack) return status ?? 'ack'
  if (type === EventType.taskReply) return status ? `reply · ${status}` : 'reply'
  return status ? `${type} · ${status}` : type
}

/** The thread pane for `correlationId`. */
export function ThreadView({ hub, correlationId }: { hub: string | null; correlationId: string }) {
  const thread = useThread(hub, correlationId)
  const openDetail = useTimelineStore((s) => s.openDetail)
  const selectedId = useTimelineStore((s) => s.selectedId)
  const setAction = useTimelineStore((s) => s.setAction)
  const refusal = useWriteRefusal(hub)
  const actOn = (id: string, action: 'ack' | 'reply'): void => {
    openDetail(id)
    setAction(action)
  }

  return (
    <article className="tl-detail" data-testid="thread-view" aria-label={`Thread ${correlationId}`}>
      <header className="tl-pane-head">
        <span className="tl-pane-kicker">Thread</span>
        <PaneIdAndClose id={correlationId} copyLabel="Copy correlation id" />
      </header>
      {thread.isPending ? (
        <LoadingState label="Folding the thread…" />
      ) : thread.isError ? (
        <div className="tl-pane-scroll">
          <ErrorState
            title="Could not read the thread"
            error={thread.error}
            onRetry={() => void thread.refetch()}
            retrying={thread.isFetching}
          />
        </div>
      ) : (
        <div className="tl-pane-scroll">
          <div className="tl-task">
            <div className="tl-task-state">
              <StatusBadge status={thread.data.state} testId="thread-state" />
              {thread.data.stuck && (
                <Chip tone="error" data-testid="thread-stuck" title="Claimed but never applied, failed or blocked">
                  <AlertTriangle size={11} aria-hidden /> stuck{thread.data.stuck_for_ms ? ` ${duration(thread.data.stuck_for_ms)}` : ''}
                </Chip>
              )}
              {thread.data.state_by && (
                <span className="muted">
                  by{' '}
                  <span className="mono">
                    <Visible text={thread.data.state_by} />
                  </span>
                  {thread.data.state_at && (
                    <>
                      {' '}
                      <RelativeTime iso={thread.data.state_at} />
                    </>
                  )}
                </span>
              )}
            </div>
            {thread.data.request ? (
              <>
                <h3 className="tl-task-title">
                  <Visible text={thread.data.request.title} />
                </h3>
                <p className="tl-task-meta">
                  <Route from={thread.data.request.from_agent} to={thread.data.request.to_agent} />
                  <span className="mono muted">
                    <Visible text={thread.data.request.stream} />
                  </span>
                  {thread.data.request.branch && (
                    <span className="mono muted">
                      <GitBranch size={12} aria-hidden />{' '}
                      <Visible
                        text={`${thread.data.request.branch}${thread.data.request.base_commit ? ` @ ${thread.data.request.base_commit.slice(0, 10)}` : ''}`}
                      />
                    </span>
                  )}
                </p>
              </>
            ) : (
              <p className="hint">No task.request in this thread (a conversation, an approval or a patch without a request).</p>
            )}
            <p className="hint">
              {plural(thread.data.event_count, 'event')}
              {thread.data.claimed_by && (
                <>
                  {' '}
                  · claimed by{' '}
                  <span className="mono">
                    <Visible text={thread.data.claimed_by} />
                  </span>
                </>
              )}
              {thread.data.last_at && (
                <>
                  {' '}
                  · last <RelativeTime iso={thread.data.last_at} />
                </>
              )}
            </p>
          </div>

          <ol className="tl-steps" aria-label="Lifecycle">
            {thread.data.steps.map((s) => (
              <li
                key={s.id}
                className={`tl-step tl-step-${s.status ?? 'none'}${s.voided ? ' voided' : ''}${s.id === selectedId ? ' selected' : ''}`}
                data-testid="thread-step"
              >
                <span className="tl-step-dot" aria-hidden />
                <button type="button" className="tl-step-main" onClick={() => openDetail(s.id)} title="Open this event">
                  <span className="tl-step-head">
                    <strong className="tl-step-label">
                      <Visible text={stepLabel(s.type, s.status)} max={80} />
                    </strong>
                    {s.voided && <Chip title="Voided by a superseded ack">voided</Chip>}
                    <span className="card-spacer" />
                    <EventTime iso={s.created_at} className="muted" />
                  </span>
                  <span className="tl-step-who">
                    <Route from={s.from_agent} to={s.to_agent} />
                    <span className="mono faint">
                      <Visible text={s.type} max={80} />
                    </span>
                  </span>
                  {s.body && (
                    <span className="tl-step-body">
                      <Visible text={s.body.split('\n').find((l) => l.trim() && l.trim() !== 'Goal:') ?? s.body} />
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ol>
        </div>
      )}
      {thread.data && thread.data.steps.length > 0 && (
        <footer className="tl-pane-actions">
          <div className="tl-action-buttons">
            {(() => {
              const target = thread.data.state_event_id ?? thread.data.steps[thread.data.steps.length - 1]!.id
              return (
                <>
                  <button
                    type="button"
                    className="btn"
                    onClick={() => actOn(target, 'ack')}
                    data-testid="thread-ack"
                    title={refusal ?? "Ack the event that set the task's state"}
                    disabled={!!refusal}
                  >
                    <CheckCheck size={14} aria-hidden /> Ack the {thread.data.state} step…
                  </button>
                  <button
                    type="button"
                    className="btn"
                    onClick={() => actOn(target, 'reply')}
                    data-testid="thread-reply"
                    title={refusal ?? undefined}
                    disabled={!!refusal}
                  >
                    <Reply size={14} aria-hidden /> Reply…
                  </button>
                </>
              )
            })()}
          </div>
        </footer>
      )}
    </article>
  )
}
