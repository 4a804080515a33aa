/** The bell that turns on desktop notifications for new needs-you items (permission is asked on this click). */
import { useState } from 'react'
import { Bell, BellOff, BellRing } from 'lucide-react'
import { transportKind } from '../../api/client'
import { notificationPermission, requestNotificationPermission } from '../../lib/inbox-notify'

/** How the bell shows a permission it cannot change (the desktop app's, granted, denied). */
const SHOWN = {
  desktop: {
    on: true,
    title: 'The desktop app notifies you when something new needs you (heartbeats and broadcasts never notify)',
    label: 'Desktop notifications'
  },
  granted: {
    on: true,
    title: 'A desktop notification appears when something new needs you (heartbeats and broadcasts never notify)',
    label: 'Notifications on'
  },
  denied: {
    on: false,
    title: "Notifications are blocked for this page; allow them in the browser's site settings",
    label: 'Notifications blocked'
  }
} as const

/** Enable / enabled / blocked, depending on the browser's permission. */
export function InboxBell() {
  const [permission, setPermission] = useState(notificationPermission)
  const shown = transportKind === 'ipc' ? 'desktop' : permission
  if (shown === 'unsupported') return null
  if (shown !== 'default') {
    const { on, title, label } = SHOWN[shown]
    const Icon = on ? BellRing : BellOff
    return (
      <span className={`hub-bell ${on ? 'on' : 'blocked'}`} data-testid="inbox-bell" data-permission={shown} title={title}>
        <Icon size={14} aria-hidden /> {label}
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
