/**
 * Desktop notifications in a browser on `muster serve`, through the Web Notification API: a thin
 * binding of the shared attention logic (`shared/notify/attention.ts`: which events count, the
 * coalescing window, the wording; the desktop app's main process uses the same). Permission is
 * only asked from a user gesture (the bell button).
 */
import type { PushedEvent } from '../../../shared/api'
import { NoticeCoalescer, type DesktopNotice } from '../../../shared/notify/attention'

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

/** Shows a notice; a click opens the item it names (the first of a burst). */
function show(notice: DesktopNotice): void {
  if (notificationPermission() !== 'granted') return
  const n = new Notification(notice.title, { body: notice.body, tag: 'muster-needs' })
  n.onclick = () => {
    window.focus()
    window.location.hash = notice.link
    n.close()
  }
}

/** Feeds pushed events to one coalescer (only new needs-you items notify); returns the feed and its cleanup. */
export function attentionNotifier(): { push: (event: PushedEvent) => void; dispose: () => void } {
  const coalescer = new NoticeCoalescer(show)
  return {
    push: (event) => {
      if (notificationsSupported) coalescer.push(event)
    },
    dispose: () => coalescer.dispose()
  }
}
