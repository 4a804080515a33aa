/**
 * Desktop notifications for the operator's hub inbox, through the Web Notification API (Electron
 * implements it too). Permission is only asked from a user gesture (the bell button); bursts of
 * `hub.inbox` events are coalesced into one notification.
 */
import type { PushedEvent } from '../../../shared/api'
import { timelineHref } from '../stores/timeline-store'

type InboxPayload = Extract<PushedEvent, { name: 'hub.inbox' }>['payload']

/** Events within this window are folded into one notification. */
const COALESCE_MS = 1500

/** Whether this runtime has Web Notifications at all. */
export const notificationsSupported = typeof window !== 'undefined' && 'Notification' in window

/** Current permission: 'granted' | 'denied' | 'default', or 'unsupported'. */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return notificationsSupported ? Notification.permission : 'unsupported'
}

/** Asks for permission; call only from a click handler. */
export async function requestNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported) return 'unsupported'
  return Notification.requestPermission()
}

let queued: InboxPayload[] = []
let timer: ReturnType<typeof setTimeout> | undefined

function flush(operator: string): void {
  timer = undefined
  const batch = queued
  queued = []
  if (!batch.length || notificationPermission() !== 'granted') return
  const last = batch[batch.length - 1]!
  const unread = batch.reduce((n, p) => Math.max(n, p.unread), 0)
  const latest = last.latest
  const title = unread === 1 ? 'New hub event for you' : `${unread} unread hub events for you`
  const body = latest ? `${latest.from_agent} · ${latest.type}${latest.status ? ` (${latest.status})` : ''}\n${latest.body.slice(0, 140)}` : `on ${last.hub || last.palace}`
  const n = new Notification(title, { body, tag: 'muster-inbox' })
  n.onclick = () => {
    window.focus()
    window.location.hash = timelineHref({ filters: operator ? { to_agent: operator } : {}, hub: last.hub || null })
    n.close()
  }
}

/** Queues one `hub.inbox` event; a notification follows after the burst settles. */
export function notifyInbox(payload: InboxPayload, operator: string): void {
  if (!notificationsSupported) return
  queued.push(payload)
  if (!timer) timer = setTimeout(() => flush(operator), COALESCE_MS)
}
