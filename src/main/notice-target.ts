/**
 * Where a click on a native notification goes: the item it names (the needs-you queue's notices
 * carry the item's app address, `#/approvals?hub=…&id=…`), else the screen of its kind (the
 * Approvals screen, or the Timeline on the notice's hub).
 */
import type { DesktopNotice } from '../shared/notify/attention'

/** The app's hash route a notification opens (only ever one of the app's own `#/` routes). */
export function noticeHash(notice: Pick<DesktopNotice, 'target' | 'hub'> & { link?: string | null }): string {
  if (notice.link && notice.link.startsWith('#/')) return notice.link
  if (notice.target === 'approvals') return '#/approvals'
  return notice.hub ? `#/timeline?${new URLSearchParams({ hub: notice.hub }).toString()}` : '#/timeline'
}
