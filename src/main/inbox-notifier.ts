/**
 * Desktop notifications from the main process (so they appear even when the window is hidden):
 * a thin binding of the shared attention logic (`shared/notify/attention.ts`: which events count,
 * the coalescing window, the wording) to the service's pushed events.
 */
import type { MusterService } from '../core/service-types'
import { NoticeCoalescer, type DesktopNotice } from '../shared/notify/attention'

export type { DesktopNotice }

/** Shows one notification; injected (Electron's `Notification` in the app, a fake in tests). */
export type ShowNotice = (notice: DesktopNotice) => void

/** Subscribes to pushed events and shows coalesced notifications; returns the unsubscribe function. */
export function notifyAttention(service: Pick<MusterService, 'subscribe'>, show: ShowNotice, windowMs?: number): () => void {
  const coalescer = new NoticeCoalescer(show, windowMs)
  const off = service.subscribe((event) => coalescer.push(event))
  return () => {
    off()
    coalescer.dispose()
  }
}
