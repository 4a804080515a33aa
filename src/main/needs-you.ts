/**
 * The desktop's answer to "who needs me, for what, since when": the count on the dock / taskbar
 * badge, and a tray icon whose tooltip and menu name the oldest waiting item (a click opens it).
 * The presenter is the one function the main process feeds with the current summary; the summary
 * comes from the core's needs-you queue (`needs.list`, re-read when it pushes `needs.changed`),
 * the same queue the Overview, the sidebar, the title and `muster needs` show.
 */
import type { NeedsList } from '../shared/contract/needs-types'

/** One item waiting for the operator. */
export interface NeedsYouItem {
  /** What it is, as the operator reads it ("approval", "patch", …). */
  kind: string
  /** One line: who wants what ("win-codex: Bash npm test (muse)"). */
  title: string
  /** When it started waiting (ISO 8601). */
  since: string
  /** The app address that opens it (`#/approvals?…`), when it can be opened. */
  link: string | null
}

/** What waits for the operator: how many items, and the oldest. */
export interface NeedsYouSummary {
  count: number
  oldest: NeedsYouItem | null
}

/** Nothing waits. */
export const NOTHING_WAITS: NeedsYouSummary = { count: 0, oldest: null }

/** The needs-you queue (ranked longest-waiting first) as a summary. */
export function summaryFromNeeds(list: Pick<NeedsList, 'count' | 'oldest'>): NeedsYouSummary {
  const first = list.oldest
  if (!first || list.count <= 0) return NOTHING_WAITS
  return {
    count: list.count,
    oldest: { kind: first.kind, title: first.title, since: first.since, link: first.link.startsWith('#/') ? first.link : null }
  }
}

/** How long something has waited, short: "now", "5 min", "3 h", "2 d". */
export function waitedFor(since: string, now: number): string {
  const t = Date.parse(since)
  if (!Number.isFinite(t)) return ''
  const s = Math.max(0, Math.round((now - t) / 1000))
  if (s < 60) return 'now'
  if (s < 3600) return `${Math.floor(s / 60)} min`
  if (s < 86_400) return `${Math.floor(s / 3600)} h`
  return `${Math.floor(s / 86_400)} d`
}

/** Cuts a line for a menu or tooltip (OS menus do not wrap). */
function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** What the badge and the tray show for a summary. */
export interface NeedsYouView {
  /** Dock / taskbar badge number (0 clears it). */
  badge: number
  /** Tray tooltip: the count and the oldest item with its wait. */
  tooltip: string
  /** The tray menu's first entry (opens the oldest item), or null when nothing waits. */
  oldestLabel: string | null
}

/** The badge and tray texts for a summary at time `now`. */
export function needsYouView(summary: NeedsYouSummary, now: number): NeedsYouView {
  const count = Math.max(0, Math.floor(summary.count))
  if (count === 0 || !summary.oldest) return { badge: count, tooltip: 'Muster: nothing needs you', oldestLabel: null }
  const age = waitedFor(summary.oldest.since, now)
  const oldest = `${summary.oldest.kind}: ${clip(summary.oldest.title, 80)}${age ? ` (waiting ${age})` : ''}`
  return {
    badge: count,
    tooltip: clip(`Muster: ${count} ${count === 1 ? 'item needs' : 'items need'} you. Oldest: ${oldest}`, 250),
    oldestLabel: `Open the oldest: ${oldest}`
  }
}

/** The tray, as far as showing the summary goes (Electron's `Tray` fits). */
export interface TrayLike {
  setToolTip(text: string): void
  /** macOS: text beside the menu-bar icon. */
  setTitle?(title: string): void
}

/** Where the summary is shown; injected (Electron's objects in the app, fakes in tests). */
export interface NeedsYouSinks {
  /** `app.setBadgeCount` (dock on macOS, Unity launchers on Linux; false where unsupported). */
  setBadgeCount(count: number): boolean
  /** Windows has no app badge: a taskbar overlay icon for the count, or null to clear it. */
  setOverlay?(count: number): void
  tray: TrayLike | null
  /** Rebuilds the tray menu: the oldest item's entry (null: none) and the fixed entries. */
  setMenu(oldestLabel: string | null, oldest: NeedsYouItem | null): void
  now?: () => number
}

/**
 * Returns `showNeedsYou(summary)`: sets the badge, the overlay, the tray tooltip, title and menu
 * for that summary. Repeating the same view does nothing (the tray menu is not rebuilt for nothing).
 */
export function createNeedsYouPresenter(sinks: NeedsYouSinks): (summary: NeedsYouSummary) => void {
  const now = sinks.now ?? Date.now
  let last = ''
  return (summary) => {
    const view = needsYouView(summary, now())
    const key = JSON.stringify([view, summary.oldest?.link ?? null])
    if (key === last) return
    last = key
    sinks.setBadgeCount(view.badge)
    sinks.setOverlay?.(view.badge)
    sinks.tray?.setToolTip(view.tooltip)
    sinks.tray?.setTitle?.(view.badge ? String(view.badge) : '')
    sinks.setMenu(view.oldestLabel, view.badge ? summary.oldest : null)
  }
}

/** Options for `feedNeedsYou`. */
export interface FeedOptions {
  /** Reads the current summary (one call to the service). */
  read: () => Promise<NeedsYouSummary>
  /** Subscribes to anything that may change it; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void
  show: (summary: NeedsYouSummary) => void
  /** Quiet time after a change before reading (ms): a burst of events is one read. */
  debounceMs?: number
  /** Re-read at least this often, so the waiting ages stay true (ms). */
  refreshMs?: number
  log?: (message: string) => void
}

/**
 * Keeps the badge and tray current: reads once now, again after changes settle and on a slow
 * timer; one read at a time (a change during a read schedules one more). Returns the stop function.
 */
export function feedNeedsYou(opts: FeedOptions): () => void {
  const debounceMs = opts.debounceMs ?? 400
  const refreshMs = opts.refreshMs ?? 30_000
  const log = opts.log ?? ((m: string) => console.warn(`[muster] ${m}`))
  let stopped = false
  let reading = false
  let again = false
  let timer: ReturnType<typeof setTimeout> | null = null
  const read = async (): Promise<void> => {
    if (stopped) return
    if (reading) {
      again = true
      return
    }
    reading = true
    try {
      const summary = await opts.read()
      if (!stopped) opts.show(summary)
    } catch (err) {
      log(`could not read what needs you: ${err instanceof Error ? err.message : String(err)}`)
    } finally {
      reading = false
      if (again && !stopped) {
        again = false
        void read()
      }
    }
  }
  const schedule = (): void => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void read(), debounceMs)
  }
  const off = opts.subscribe(schedule)
  const tick = setInterval(() => void read(), refreshMs)
  tick.unref?.()
  void read()
  return () => {
    stopped = true
    off()
    clearInterval(tick)
    if (timer) clearTimeout(timer)
  }
}
