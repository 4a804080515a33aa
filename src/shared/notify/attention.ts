/**
 * Desktop notifications for what needs the operator: approval requests waiting and the hub inbox
 * growing. One logic for both bindings (the Electron main process shows native notifications;
 * a browser on `muster serve` shows Web Notifications): which pushed events count, one window
 * that coalesces a burst into one notification, and one wording. An approval that is decided
 * inside the window (an allowlist rule answered it at once) never notifies.
 */
import type { PushedEvent } from '../api'
import { EventType } from '../contract/hub-vocabulary'

/** A burst of pushed events within this window becomes one notification. */
export const NOTICE_COALESCE_MS = 1500

/** An approval request that arrived. */
export interface ApprovalAttention {
  kind: 'approval'
  hub: string
  correlation_id: string
  agent: string
  project: string
  tool: string
  summary: string
}

/** The operator's unread inbox grew. */
export interface InboxAttention {
  kind: 'inbox'
  hub: string
  unread: number
  latest: { from_agent: string; type: string; status: string | null; body: string } | null
}

/** Something that may need the operator. */
export type Attention = ApprovalAttention | InboxAttention

/** A notification: what it says and which screen its click opens. */
export interface Notice {
  title: string
  body: string
  target: 'approvals' | 'inbox'
  /** For the inbox target: the hub to open the timeline on. */
  hub: string
}

const line = (text: string, max = 120): string => {
  const l = text.replace(/\s+/g, ' ').trim()
  return l.length > max ? `${l.slice(0, max - 1)}…` : l
}

/** What a pushed event adds (`items`) and which approvals it settles (their correlation ids). */
export function attentionFrom(event: PushedEvent): { items: Attention[]; settled: string[] } {
  if (event.name === 'hub.inbox') {
    const { hub, unread, latest } = event.payload
    // An approval request in the inbox is announced as an approval, not as an unread event.
    if (unread === 0 || (latest && latest.type.startsWith('approval.'))) return { items: [], settled: [] }
    return {
      items: [
        {
          kind: 'inbox',
          hub,
          unread,
          latest: latest && { from_agent: latest.from_agent, type: latest.type, status: latest.status, body: latest.body }
        }
      ],
      settled: []
    }
  }
  if (event.name !== 'hub.events') return { items: [], settled: [] }
  const items: Attention[] = []
  const settled: string[] = []
  for (const e of event.payload.events) {
    if (!e.correlation_id) continue
    if (e.type === EventType.approvalDecision) settled.push(e.correlation_id)
    if (e.type !== EventType.approvalRequest) continue
    const tool = typeof e.metadata.tool_name === 'string' ? e.metadata.tool_name : 'tool'
    items.push({
      kind: 'approval',
      hub: event.payload.hub,
      correlation_id: e.correlation_id,
      agent: e.from_agent,
      project: e.stream.replace(/^project\//, ''),
      tool,
      summary: line(e.body)
    })
  }
  return { items, settled }
}

/** The one notification for a window's worth of attention items, or null when nothing is left. */
export function noticeFor(items: readonly Attention[]): Notice | null {
  const approvals = items.filter((i): i is ApprovalAttention => i.kind === 'approval')
  const inbox = items.filter((i): i is InboxAttention => i.kind === 'inbox')
  const lastInbox = inbox[inbox.length - 1]
  if (approvals.length) {
    const first = approvals[0]!
    const title =
      approvals.length === 1 ? `${first.agent} needs approval (${first.project}, ${first.tool})` : `${approvals.length} approvals waiting`
    const shown = approvals.slice(0, 3).map((a) => (approvals.length === 1 ? a.summary : `${a.agent} · ${a.project} · ${a.summary}`))
    if (approvals.length > 3) shown.push(`+${approvals.length - 3} more`)
    if (lastInbox) shown.push(`and ${lastInbox.unread} unread in your hub inbox`)
    return { title, body: shown.join('\n'), target: 'approvals', hub: first.hub }
  }
  if (!lastInbox) return null
  const senders = [...new Set(inbox.map((u) => u.latest?.from_agent).filter((s): s is string => !!s))]
  const hubs = [...new Set(inbox.map((u) => u.hub))]
  const latest = lastInbox.latest
  const title = lastInbox.unread === 1 ? '1 unread event in your hub inbox' : `${lastInbox.unread} unread events in your hub inbox`
  const first = latest ? `${latest.from_agent}: ${latest.type}${latest.status ? ` (${latest.status})` : ''} — ${line(latest.body)}` : ''
  const more = senders.length > 1 ? `\nalso from ${senders.filter((s) => s !== latest?.from_agent).join(', ')}` : ''
  const where = hubs.length > 1 ? `\nhubs: ${hubs.join(', ')}` : ''
  return { title, body: `${first}${more}${where}`.trim(), target: 'inbox', hub: lastInbox.hub }
}

/**
 * Feeds pushed events in; after the first relevant one, waits `windowMs`, then shows at most one
 * notification for everything gathered (approvals decided in the meantime are dropped).
 */
export class NoticeCoalescer {
  private items: Attention[] = []
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly show: (notice: Notice) => void,
    private readonly windowMs = NOTICE_COALESCE_MS
  ) {}

  /** Takes one pushed event (any kind; irrelevant ones are ignored). */
  push(event: PushedEvent): void {
    const { items, settled } = attentionFrom(event)
    if (settled.length) {
      const done = new Set(settled)
      this.items = this.items.filter((i) => i.kind !== 'approval' || !done.has(i.correlation_id))
    }
    const fresh = items.filter((i) => i.kind !== 'approval' || !settled.includes(i.correlation_id))
    if (!fresh.length) return
    this.items.push(...fresh)
    this.timer ??= setTimeout(() => this.flush(), this.windowMs)
  }

  private flush(): void {
    this.timer = undefined
    const notice = noticeFor(this.items)
    this.items = []
    if (notice) this.show(notice)
  }

  /** Drops what is pending and stops the timer. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    this.items = []
  }
}
