/** Acting on one event as the operator: ack it with a status, or reply to its sender. */
import { useState, type FormEvent } from 'react'
import { Check, Reply } from 'lucide-react'
import { ACK_STATUSES, EventType, REPLY_STATUSES, Status } from '../../../../shared/api'
import { useAck, useAppend, hubSel } from '../../api/hub-queries'
import { Field, TextField } from '../../components/form-field'
import { InlineError } from '../../components/state-views'
import { useToastStore } from '../../stores/toast-store'
import type { TimelineEvent } from './hub-types'
import { WriteButtons } from './operator-line'

/** The ack form: status (claimed / applied / failed / blocked / superseded) and an optional body. */
export function AckForm({ hub, event, onDone }: { hub: string | null; event: TimelineEvent; onDone: () => void }) {
  const ack = useAck()
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
      <Field label="Status">
        {(fid) => (
          <select
            id={fid}
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
        )}
      </Field>
      <TextField label="Note" aside="optional: evidence, reason" rows={3} value={body} onChange={setBody} testId="ack-body" />
      <WriteButtons hub={hub} busy={ack.isPending} icon={Check} testId="ack-submit" onCancel={onDone}>
        Ack as {status}
      </WriteButtons>
      <InlineError error={ack.error} />
    </form>
  )
}

/** A `task.reply` to the event's sender, in the same stream, room and thread. */
export function ReplyForm({ hub, event, onDone }: { hub: string | null; event: TimelineEvent; onDone: () => void }) {
  const append = useAppend()
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
      <TextField label="Reply" rows={4} value={body} onChange={setBody} autoFocus testId="reply-body" required />
      <WriteButtons
        hub={hub}
        busy={append.isPending}
        icon={Reply}
        ready={!!body.trim()}
        testId="reply-submit"
        onCancel={onDone}
        before={
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
        }
      >
        Send reply
      </WriteButtons>
      <InlineError error={append.error} />
    </form>
  )
}
