/**
 * Desktop notifications and the badge, from the needs-you queue only: one logic for both bindings
 * (the Electron main process shows native notifications; a browser on `muster serve` shows Web
 * Notifications). Only items new to the queue notify (pushed in `needs.changed`), so heartbeats,
 * broadcasts and anything already known never do; a burst within one window becomes one
 * notification naming its items; an item that left the queue inside the window (an approval an
 * allowlist rule answered at once) never notifies. A click opens the item (its `link`).
 */
import type { PushedEvent } from '../api'
import type { NeedItem, NeedsChanged } from '../contract/needs-types'

/** A burst of new items within this window becomes one notification. */
export const NOTICE_COALESCE_MS = 1500

/** A notification: what it says and what its click opens. */
export interface DesktopNotice {
  title: string
  body: string
  /** The screen a click opens: the Approvals screen when the first item is an approval. */
  target: 'approvals' | 'inbox'
  /** The first item's hub (registered name or location; '' for directives). */
  hub: string
  /** The first item's address (`#/approvals?hub=…&id=…`): what a click opens. */
  link: string
}

/** What a badge (dock, tray, title) shows: the count, and a one-line tooltip naming the oldest item. */
export interface NeedsBadge {
  count: number
  /** `3 need you — oldest: win-codex asks to use Bash (18 min)`, or `Nothing needs you`. */
  tooltip: string
}

const line = (text: string, max = 120): string => {
  const l = text.replace(/\s+/g, ' ').trim()
  return l.length > max ? `${l.slice(0, max - 1)}…` : l
}

/** Minutes/hours/days of a wait, short (`45 s`, `18 min`, `3 h`, `2 d`). */
export function waitText(since: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(since)) / 1000))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min`
  if (s < 86_400) return `${Math.floor(s / 3600)} h`
  return `${Math.floor(s / 86_400)} d`
}

/** The badge for a queue state (a `needs.changed` payload or a `needs.list` result). */
export function needsBadge(q: Pick<NeedsChanged, 'count' | 'oldest'>, now = Date.now()): NeedsBadge {
  if (!q.count || !q.oldest) return { count: 0, tooltip: 'Nothing needs you' }
  return {
    count: q.count,
    tooltip: `${q.count} need${q.count === 1 ? 's' : ''} you — oldest: ${q.oldest.title} (${waitText(q.oldest.since, now)})`
  }
}

/** The one notification for a window's worth of new items, or null when there are none. */
export function noticeFor(items: readonly NeedItem[]): DesktopNotice | null {
  const first = items[0]
  if (!first) return null
  const where = (i: NeedItem): string => [i.project, i.hub && i.hub !== i.palace ? i.hub : null].filter(Boolean).join(' · ')
  const title = items.length === 1 ? first.title : `${items.length} new things need you`
  const shown =
    items.length === 1
      ? [line(first.detail), where(first)].filter(Boolean)
      : items.slice(0, 3).map((i) => line(`${i.title}${where(i) ? ` (${where(i)})` : ''}`))
  if (items.length > 3) shown.push(`+${items.length - 3} more`)
  return {
    title: line(title),
    body: shown.join('\n'),
    target: first.kind === 'approval' ? 'approvals' : 'inbox',
    hub: first.hub ?? '',
    link: first.link
  }
}

/**
 * Feeds pushed events in; after the first new item, waits `windowMs`, then shows at most one
 * notification for everything gathered that is still in the queue.
 */
export class NoticeCoalescer {
  private items: NeedItem[] = []
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly show: (notice: DesktopNotice) => void,
    private readonly windowMs = NOTICE_COALESCE_MS
  ) {}

  /** Takes one pushed event (only `needs.changed` counts). */
  push(event: PushedEvent): void {
    if (event.name !== 'needs.changed') return
    const { added, removed } = event.payload
    if (removed.length) {
      const gone = new Set(removed)
      this.items = this.items.filter((i) => !gone.has(i.key))
    }
    const known = new Set(this.items.map((i) => i.key))
    const fresh = added.filter((i) => !known.has(i.key))
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
