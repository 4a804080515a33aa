/**
 * Where a click on a native notification goes: the item it names when it carries a link (the
 * needs-you queue's notices), else the screen of its kind (the Approvals screen, or the Timeline
 * on the notice's hub for the inbox).
 */
import type { Notice } from '../shared/notify/attention'
import { deepLinkHash, type DeepLink } from '../shared/deep-link'

/** The app's hash route a notification opens. */
export function noticeHash(notice: Notice & { link?: DeepLink | null }): string {
  if (notice.link) return deepLinkHash(notice.link)
  if (notice.target === 'approvals') return '#/approvals'
  return notice.hub ? `#/timeline?${new URLSearchParams({ hub: notice.hub }).toString()}` : '#/timeline'
}
