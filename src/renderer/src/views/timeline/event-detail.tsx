/**
 * The selected event in full: verbatim body, routing, metadata as pretty JSON, artifacts, the
 * acks it received, and the operator's actions (ack, reply, open thread).
 */
import { CheckCheck, FileDiff, GitBranch, Paperclip, Reply, ShieldCheck, Waypoints } from 'lucide-react'
import { EventType } from '../../../../shared/contract/hub-vocabulary'
import { approvalLink, patchLink } from '../../../../shared/links'
import { metadataText } from '../../../../shared/metadata-text'
import { OUT_OF_SEQUENCE, OUT_OF_SEQUENCE_WHY, outOfSequence } from '../../../../shared/hub-sequence'
import { useAcksOf, useHubEvent, useWriteRefusal } from '../../api/hub-queries'
import { ActionButton } from '../../components/action-button'
import { Keys } from '../../components/kbd'
import { RelativeTime } from '../../components/relative-time'
import { ErrorState, LoadingState } from '../../components/state-views'
import { useTimelineStore } from '../../stores/timeline-store'
import { PaneIdAndClose } from './pane-id'
import { ArtifactItem } from './artifact-item'
import { AckForm, ReplyForm } from './event-actions'
import { CorrelationChip, EventTime, Route, StatusBadge, TypeBadge } from './event-bits'
import type { TimelineEvent } from './hub-types'
import { OperatorLine, ReadOnlyNote } from './operator-line'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

/** Detail pane for event `id`; `preview` (the list row) shows while the full event loads. */
export function EventDetail({ hub, id, preview }: { hub: string | null; id: string; preview: TimelineEvent | undefined }) {
  const full = useHubEvent(hub, id)
  const event = full.data?.event ?? preview
  const action = useTimelineStore((s) => s.action)
  const setAction = useTimelineStore((s) => s.setAction)
  const openThread = useTimelineStore((s) => s.openThread)
  const refusal = useWriteRefusal(hub)

  if (!event) {
    if (full.isError)
      return (
        <ErrorState title="Could not read the event" error={full.error} onRetry={() => void full.refetch()} retrying={full.isFetching} />
      )
    return <LoadingState label="Loading the event…" />
  }
  const thread = event.correlation_id
  return (
    <article className="tl-detail" data-testid="event-detail" aria-label={`Event ${event.id}`}>
      <header className="tl-pane-head">
        <TypeBadge type={event.type} />
        <StatusBadge status={event.status} />
        <PaneIdAndClose id={event.id} copyLabel="Copy event id" />
      </header>

      <div className="tl-pane-scroll">
        <dl className="tl-meta">
          <dt>Route</dt>
          <dd>
            <Route from={event.from_agent} to={event.to_agent} />
          </dd>
          <dt>Lane</dt>
          <dd className="mono">
            <Visible text={`${event.stream} / ${event.room}${event.topic ? ` / ${event.topic}` : ''}`} />
          </dd>
          <dt>Time</dt>
          <dd>
            <EventTime iso={event.created_at} /> <span className="muted">·</span> <RelativeTime iso={event.created_at} />
          </dd>
          <dt>Thread</dt>
          <dd>{thread ? <CorrelationChip id={thread} onOpen={openThread} /> : <span className="muted">none</span>}</dd>
          {(event.branch || event.base_commit) && (
            <>
              <dt>Branch</dt>
              <dd className="mono">
                <GitBranch size={12} aria-hidden /> <Visible text={event.branch ?? '—'} />
                {event.base_commit && (
                  <span className="muted">
                    {' '}
                    @ <Visible text={event.base_commit} />
                  </span>
                )}
              </dd>
            </>
          )}
          <dt>Seq</dt>
          <dd className="mono muted" title={event.hlc ?? undefined}>
            {event.seq}
            {event.origin_replica ? ` · ${event.origin_replica}` : ''}
          </dd>
          {outOfSequence(event.seq) && (
            <>
              <dt>Order</dt>
              <dd className="tl-out-of-sequence-why" data-testid="out-of-sequence-why">
                <strong>{OUT_OF_SEQUENCE}.</strong> {OUT_OF_SEQUENCE_WHY}
              </dd>
            </>
          )}
        </dl>

        <section className="tl-section">
          <h3>Body</h3>
          <pre className="tl-body-full" data-testid="event-body">
            <Visible text={full.data ? full.data.event.body : event.body} multiline keepTabs />
            {!full.data && event.body_truncated ? '…' : ''}
          </pre>
          {!full.data && event.body_truncated && <p className="hint">Loading the full body ({event.body_length} characters)…</p>}
        </section>

        {Object.keys(event.metadata).length > 0 && (
          <section className="tl-section">
            <h3>Metadata</h3>
            <pre className="tl-json" data-testid="event-metadata">
              <Visible text={metadataText(event)} multiline keepTabs />
            </pre>
          </section>
        )}

        {event.artifact_ids.length > 0 && (
          <section className="tl-section">
            <h3>
              <Paperclip size={13} aria-hidden /> Artifacts
            </h3>
            <ul className="tl-artifacts rows-divided" data-testid="event-artifacts">
              {event.artifact_ids.map((a) => (
                <ArtifactItem key={a} hub={hub} id={a} />
              ))}
            </ul>
          </section>
        )}

        <AckChain hub={hub} event={event} />
      </div>

      <footer className="tl-pane-actions">
        <OperatorLine />
        <ReadOnlyNote hub={hub} />
        {action === 'ack' ? (
          <AckForm hub={hub} event={event} onDone={() => setAction(null)} />
        ) : action === 'reply' ? (
          <ReplyForm hub={hub} event={event} onDone={() => setAction(null)} />
        ) : (
          <div className="tl-action-buttons">
            <ActionButton
              icon={CheckCheck}
              className="btn btn-primary"
              onClick={() => setAction('ack')}
              testId="ack-button"
              title={refusal ?? 'Ack this event (a)'}
              disabled={!!refusal}
            >
              Ack… <Keys keys={['a']} />
            </ActionButton>
            <ActionButton
              icon={Reply}
              onClick={() => setAction('reply')}
              testId="reply-button"
              title={refusal ?? 'Reply to the sender (r)'}
              disabled={!!refusal}
            >
              Reply… <Keys keys={['r']} />
            </ActionButton>
            {thread && (
              <ActionButton icon={Waypoints} onClick={() => openThread(thread)} testId="open-thread" title="Open the thread (t)">
                Thread <Keys keys={['t']} />
              </ActionButton>
            )}
            {event.type === EventType.patchReady && (
              <a className="btn" href={patchLink(hub, event.id)} data-testid="open-patch">
                <FileDiff size={14} aria-hidden /> Open in Patches
              </a>
            )}
            {event.type === EventType.approvalRequest && (
              <a className="btn" href={approvalLink(hub, event.id)} data-testid="open-approval">
                <ShieldCheck size={14} aria-hidden /> Open in Approvals
              </a>
            )}
          </div>
        )}
      </footer>
    </article>
  )
}

/** The `event.ack` rows that point at this event (`metadata.ack_of`). */
function AckChain({ hub, event }: { hub: string | null; event: TimelineEvent }) {
  const acks = useAcksOf(hub, event.id, event.correlation_id)
  return (
    <section className="tl-section" data-testid="ack-chain">
      <h3>
        <CheckCheck size={13} aria-hidden /> Acks
      </h3>
      {acks.isPending ? (
        <p className="hint">Loading…</p>
      ) : acks.isError ? (
        <p className="hint text-error">{acks.error.message}</p>
      ) : acks.data.length === 0 ? (
        <p className="hint">Nobody acked this event yet.</p>
      ) : (
        <ol className="tl-acks">
          {acks.data.map((a) => (
            <li key={a.id} data-testid={`ack-${a.id}`}>
              <StatusBadge status={a.status} />
              <span className="mono">
                <Visible text={a.from_agent} />
              </span>
              <RelativeTime iso={a.created_at} className="muted" />
              {a.body && (
                <span className="tl-ack-body ellipsis" title={visibleTitle(a.body)}>
                  <Visible text={a.body.replace(/(?:\r\n|[\n\t ])+/g, ' ')} />
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
