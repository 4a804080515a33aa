/** The bell that turns on desktop notifications for new needs-you items (permission is asked on this click). */
import { useState } from 'react'
import { Bell, BellOff, BellRing } from 'lucide-react'
import { transportKind } from '../../api/client'
import { notificationPermission, requestNotificationPermission } from '../../lib/inbox-notify'

/** Enable / enabled / blocked, depending on the browser's permission. */
export function InboxBell() {
  const [permission, setPermission] = useState(notificationPermission)
  if (transportKind === 'ipc') {
    return (
      <span
        className="hub-bell on"
        data-testid="inbox-bell"
        data-permission="desktop"
        title="The desktop app notifies you when something new needs you (heartbeats and broadcasts never notify)"
      >
        <BellRing size={14} aria-hidden /> Desktop notifications
      </span>
    )
  }
  if (permission === 'unsupported') return null
  if (permission === 'granted') {
    return (
      <span
        className="hub-bell on"
        data-testid="inbox-bell"
        data-permission="granted"
        title="A desktop notification appears when something new needs you (heartbeats and broadcasts never notify)"
      >
        <BellRing size={14} aria-hidden /> Notifications on
      </span>
    )
  }
  if (permission === 'denied') {
    return (
      <span
        className="hub-bell blocked"
        data-testid="inbox-bell"
        data-permission="denied"
        title="Notifications are blocked for this page; allow them in the browser's site settings"
      >
        <BellOff size={14} aria-hidden /> Notifications blocked
      </span>
    )
  }
  return (
    <button
      type="button"
      className="btn hub-bell"
      data-testid="inbox-bell"
      data-permission="default"
      onClick={() => void requestNotificationPermission().then(setPermission)}
      title="Get a desktop notification when something new needs you: an approval, a patch, a task or message to you, a stuck task, a waiting session"
    >
      <Bell size={14} aria-hidden /> Notify me
    </button>
  )
}
