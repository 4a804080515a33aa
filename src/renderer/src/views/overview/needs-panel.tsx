/**
 * The Overview's answer to "who needs me, for what, since when?": the needs-you queue, longest
 * wait first, with its count and the oldest wait in the heading. Each item names its kind, agent,
 * project and hub, how long it has waited, and links to where the operator acts on it.
 */
import { useState, type ReactNode } from 'react'
import {
  CircleAlert,
  CircleCheck,
  FileDiff,
  Gauge,
  GitMerge,
  Hourglass,
  ListTodo,
  Mail,
  MessageSquareMore,
  Send,
  ShieldAlert,
  ShieldCheck
} from 'lucide-react'
import type { NeedItem, NeedKind } from '../../../../shared/api'
import { useNeeds } from '../../api/needs-queries'
import { useNow } from '../../hooks/use-now'
import { shortAge } from '../../lib/format'
import { Visible } from '../../components/visible'

const KIND: Record<NeedKind, { label: string; icon: ReactNode }> = {
  approval: { label: 'approval', icon: <ShieldCheck size={14} aria-hidden /> },
  patch: { label: 'patch', icon: <FileDiff size={14} aria-hidden /> },
  task: { label: 'task', icon: <ListTodo size={14} aria-hidden /> },
  message: { label: 'message', icon: <Mail size={14} aria-hidden /> },
  stuck: { label: 'stuck', icon: <Hourglass size={14} aria-hidden /> },
  directive: { label: 'directive', icon: <Send size={14} aria-hidden /> },
  session: { label: 'session', icon: <MessageSquareMore size={14} aria-hidden /> },
  gate: { label: 'gate', icon: <ShieldAlert size={14} aria-hidden /> },
  budget: { label: 'budget', icon: <Gauge size={14} aria-hidden /> },
  kept: { label: 'kept send', icon: <GitMerge size={14} aria-hidden /> }
}

/** How many items the panel lists before "and N more". */
const SHOWN = 8

/** One item of the queue: what, who and where, how long it has waited; a link to where it is acted on. */
export function NeedRow({ item, now }: { item: NeedItem; now: number }) {
  const k = KIND[item.kind]
  const where = [item.agent, item.project, item.hub && item.hub !== item.palace ? item.hub : null].filter(Boolean).join(' · ')
  return (
    <li>
      <a
        href={item.link}
        className={`row-list-item need-item need-${item.kind}`}
        data-testid="need-item"
        data-kind={item.kind}
        data-key={item.key}
      >
        <span className="row-list-label need-kind">
          {k.icon}
          {k.label}
        </span>
        <span className="row-list-text need-text">
          <span className="row-list-clip need-title">
            <Visible text={item.title} />
          </span>
          {item.detail && (
            <span className="row-list-clip need-detail muted">
              <Visible text={item.detail} />
            </span>
          )}
          {where && (
            <span className="row-list-clip need-where muted">
              <Visible text={where} />
            </span>
          )}
        </span>
        <span className="row-list-time need-age" title={`waiting since ${new Date(item.since).toLocaleString()}`}>
          {shortAge(item.since, now)}
        </span>
      </a>
    </li>
  )
}

/** The queue on the Overview; a calm line when nothing waits. */
export function NeedsPanel() {
  const needs = useNeeds()
  const now = useNow()
  const [all, setAll] = useState(false)
  const q = needs.data
  if (!q) return null
  const failed = q.sources.filter((s) => !s.ok)
  return (
    <section className="row-panel needs-panel" data-testid="needs-panel" aria-label="Needs you">
      <div className="needs-head">
        <h2>Needs you</h2>
        {q.count > 0 ? (
          <span className="needs-summary" data-testid="needs-summary">
            <strong data-testid="needs-count">{q.count}</strong> waiting
            {q.oldest && (
              <>
                , the oldest for <strong data-testid="needs-oldest">{shortAge(q.oldest.since, now)}</strong>
              </>
            )}
          </span>
        ) : (
          <span className="needs-summary muted" data-testid="needs-summary">
            <CircleCheck size={14} aria-hidden /> Nothing waits on you
          </span>
        )}
        {q.unread.direct + q.unread.broadcast > 0 && (
          <span className="needs-unread muted" data-testid="needs-unread" title="Unread events in your hub inboxes">
            {q.unread.direct} unread to you · {q.unread.broadcast} broadcast
          </span>
        )}
      </div>
      {failed.map((s) => (
        <p key={s.source} className="needs-problem">
          <CircleAlert size={14} aria-hidden /> {s.source}: {s.error}
        </p>
      ))}
      {q.count > 0 && (
        <ul className="row-list needs-list" data-testid="needs-list">
          {(all ? q.items : q.items.slice(0, SHOWN)).map((i) => (
            <NeedRow key={i.key} item={i} now={now} />
          ))}
        </ul>
      )}
      {q.count > SHOWN && (
        <button type="button" className="btn needs-more" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? 'Show the oldest only' : `Show all ${q.count}`}
        </button>
      )}
    </section>
  )
}
