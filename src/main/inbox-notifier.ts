/**
 * Desktop notifications from the main process (so they appear even when the window is hidden):
 * a thin binding of the shared attention logic (`shared/notify/attention.ts`: which events count,
 * the coalescing window, the wording) to the service's pushed events.
 */
import type { MusterService } from '../core/service-types'
import { NoticeCoalescer, type Notice } from '../shared/notify/attention'

export type { Notice }

/** Shows one notification; injected (Electron's `Notification` in the app, a fake in tests). */
export type ShowNotice = (notice: Notice) => void

/** Subscribes to pushed events and shows coalesced notifications; returns the unsubscribe function. */
export function notifyAttention(service: Pick<MusterService, 'subscribe'>, show: ShowNotice, windowMs?: number): () => void {
  const coalescer = new NoticeCoalescer(show, windowMs)
  const off = service.subscribe((event) => coalescer.push(event))
  return () => {
    off()
    coalescer.dispose()
  }
}
