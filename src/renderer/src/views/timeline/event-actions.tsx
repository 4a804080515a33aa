/** Acting on one event as the operator: ack it with a status, or reply to its sender. */
import { useId, useState, type FormEvent } from 'react'
import { Check, LoaderCircle, Reply } from 'lucide-react'
import { ACK_STATUSES, EventType, REPLY_STATUSES, Status } from '../../../../shared/api'
import { useAck, useAppend, useWriteRefusal, hubSel } from '../../api/hub-queries'
import { InlineError } from '../../components/state-views'
import { useToastStore } from '../../stores/toast-store'
import type { TimelineEvent } from './hub-types'
import { useOperatorId } from './operator-line'

/** The ack form: status (claimed / applied / failed / blocked / superseded) and an optional body. */
export function AckForm({ hub, event, onDone }: { hub: string | null; event: TimelineEvent; onDone: () => void }) {
  const id = useId()
  const operator = useOperatorId()
  const ack = useAck()
  const refusal = useWriteRefusal(hub)
  const toast = useToastStore((s) => s.push)
  const [status, setStatus] = useState<string>(event.status === Status.ready ? Status.applied : Status.claimed)
  const [body, setBody] = useState('')

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    ack.mutate(
      { ...hubSel(hub), event_id: event.id, status, ...(body.trim() ? { body } : {}) },
      {
        onSuccess: (out) => {
          toast('info', `Acked ${event.type} as ${status} (${out.event.id})`)
          onDone()
        }
      }
    )
  }

  return (
    <form className="form tl-action-form" onSubmit={submit} data-testid="ack-form">
      <p className="hint">
        <code>event.ack</code> to <code>{event.from_agent}</code> in thread <code>{event.correlation_id ?? event.id}</code>
      </p>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          className="input tl-inline-select"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          data-testid="ack-status"
          autoFocus
        >
          {ACK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>
          Note <span className="muted">(optional: evidence, reason)</span>
        </label>
        <textarea
          id={`${id}-body`}
          className="input textarea"
          rows={3}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          data-testid="ack-body"
        />
      </div>
      <div className="tl-action-buttons">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={ack.isPending || !operator || !!refusal}
          title={refusal ?? undefined}
          data-testid="ack-submit"
        >
          {ack.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Check size={14} aria-hidden />}
          Ack as {status}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
      <InlineError error={ack.error} />
    </form>
  )
}

/** A `task.reply` to the event's sender, in the same stream, room and thread. */
export function ReplyForm({ hub, event, onDone }: { hub: string | null; event: TimelineEvent; onDone: () => void }) {
  const id = useId()
  const operator = useOperatorId()
  const append = useAppend()
  const refusal = useWriteRefusal(hub)
  const toast = useToastStore((s) => s.push)
  const [body, setBody] = useState('')
  const [status, setStatus] = useState('')
  const thread = event.correlation_id ?? event.id

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    append.mutate(
      {
        ...hubSel(hub),
        type: EventType.taskReply,
        stream: event.stream,
        room: event.room,
        topic: event.topic,
        to_agent: event.from_agent,
        correlation_id: thread,
        status: status || null,
        body,
        metadata: { reply_to: event.id }
      },
      {
        onSuccess: (out) => {
          toast('info', `Replied to ${event.from_agent} (${out.event.id})`)
          onDone()
        }
      }
    )
  }

  return (
    <form className="form tl-action-form" onSubmit={submit} data-testid="reply-form">
      <p className="hint">
        <code>task.reply</code> to <code>{event.from_agent}</code> in <code>{event.stream}</code> / <code>{event.room}</code>, thread{' '}
        <code>{thread}</code>
      </p>
      <div className="field">
        <label htmlFor={`${id}-body`}>Reply</label>
        <textarea
          id={`${id}-body`}
          className="input textarea"
          rows={4}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          autoFocus
          data-testid="reply-body"
          required
        />
      </div>
      <div className="tl-action-buttons">
        <select
          className="input tl-inline-select"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          aria-label="Reply status"
          data-testid="reply-status"
        >
          {REPLY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s ? `status: ${s}` : 'no status'}
            </option>
          ))}
        </select>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={append.isPending || !body.trim() || !operator || !!refusal}
          title={refusal ?? undefined}
          data-testid="reply-submit"
        >
          {append.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Reply size={14} aria-hidden />}
          Send reply
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
      <InlineError error={append.error} />
    </form>
  )
}
