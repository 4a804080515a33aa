/**
 * Desktop notifications for the operator's hub inbox, from the main process (so they appear even
 * when the window is hidden). Bursts are coalesced: at most one notification per window of time,
 * summarising how many new events arrived and from whom.
 */
import type { MusterService } from '../core/service-types'
import type { PushedEvent } from '../shared/api'

/** What a notification says. */
export interface InboxNotice {
  title: string
  body: string
}

/** Shows one notification; injected (Electron's `Notification` in the app, a fake in tests). */
export type ShowNotice = (notice: InboxNotice) => void

type InboxPayload = Extract<PushedEvent, { name: 'hub.inbox' }>['payload']

/** Builds the notice for the inbox updates gathered during one window. */
export function summarise(updates: InboxPayload[]): InboxNotice | null {
  if (updates.length === 0) return null
  const last = updates[updates.length - 1]!
  const senders = [...new Set(updates.map((u) => u.latest?.from_agent).filter((s): s is string => !!s))]
  const hubs = [...new Set(updates.map((u) => u.hub))]
  const title = last.unread === 1 ? '1 unread event in your hub inbox' : `${last.unread} unread events in your hub inbox`
  const latest = last.latest
  const first = latest ? `${latest.from_agent}: ${latest.type}${latest.status ? ` (${latest.status})` : ''} — ${oneLine(latest.body)}` : ''
  const more = senders.length > 1 ? `\nalso from ${senders.filter((s) => s !== latest?.from_agent).join(', ')}` : ''
  const where = hubs.length > 1 ? `\nhubs: ${hubs.join(', ')}` : ''
  return { title, body: `${first}${more}${where}`.trim() }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}

/** Subscribes to `hub.inbox` and shows coalesced notifications; returns the unsubscribe function. */
export function notifyInbox(service: Pick<MusterService, 'subscribe'>, show: ShowNotice, windowMs = 3000): () => void {
  let pending: InboxPayload[] = []
  let timer: NodeJS.Timeout | null = null
  const flush = (): void => {
    timer = null
    const notice = summarise(pending)
    pending = []
    if (notice) show(notice)
  }
  const off = service.subscribe((event) => {
    if (event.name !== 'hub.inbox' || event.payload.unread === 0) return
    pending.push(event.payload)
    if (!timer) timer = setTimeout(flush, windowMs)
  })
  return () => {
    off()
    if (timer) clearTimeout(timer)
  }
}
