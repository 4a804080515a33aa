/**
 * The needs-you summary file (`<home>/needs-summary.json`): the queue's count, its oldest item and
 * the unread counts, written by whoever computed the whole queue last (the desktop app, `muster
 * serve`, `muster needs`), so that `muster status` can end with one line of it without opening
 * a hub. Plain data and text here; no I/O, no zod (the status entry loads this).
 */

/** File name of the summary in Muster's home. */
export const NEEDS_SUMMARY_FILE = 'needs-summary.json'

/** A summary older than this is refreshed (in the background) by the next `muster status`. */
export const NEEDS_SUMMARY_STALE_MS = 60_000

/** What the summary holds. */
export interface NeedsSummary {
  /** When the queue was computed (ISO time). */
  at: string
  /** How many hubs were read (registered ones, plus MemPalace's default palace when it exists). */
  hubs: number
  count: number
  /** The longest-waiting item, or null. */
  oldest: { kind: string; title: string; since: string; link: string } | null
  unread: { direct: number; broadcast: number }
  /** Hubs that could not be read. */
  failed: number
}

/** The summary as parsed from the file's text; null when it is not one. */
export function parseNeedsSummary(text: string): NeedsSummary | null {
  try {
    const v = JSON.parse(text) as Partial<NeedsSummary>
    if (typeof v.at !== 'string' || typeof v.hubs !== 'number' || typeof v.count !== 'number' || !v.unread) return null
    return { failed: 0, oldest: null, ...v } as NeedsSummary
  } catch {
    return null
  }
}

/** "18 min" style duration between two times. */
export function waitedFor(sinceMs: number, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - sinceMs) / 1000))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.round(s / 60)} min`
  if (s < 86400) return `${Math.round(s / 3600)} h`
  return `${Math.round(s / 86400)} d`
}

/**
 * The one line `muster status` ends with: how many things wait on the operator and the oldest;
 * the unread direct messages; how old the figures are when they are not fresh. Null when no hub
 * was read (nothing to say).
 */
export function needsSummaryLine(s: NeedsSummary, nowMs: number): string | null {
  if (s.hubs === 0) return null
  const parts: string[] = []
  if (s.count === 0) parts.push('needs you: nothing')
  else {
    const oldest = s.oldest ? `, oldest waiting ${waitedFor(Date.parse(s.oldest.since), nowMs)}: ${s.oldest.title}` : ''
    parts.push(`needs you: ${s.count}${oldest}`)
  }
  if (s.unread.direct) parts.push(`${s.unread.direct} unread direct message${s.unread.direct === 1 ? '' : 's'}`)
  if (s.failed) parts.push(`${s.failed} hub${s.failed === 1 ? '' : 's'} unreadable`)
  const age = nowMs - Date.parse(s.at)
  if (age >= NEEDS_SUMMARY_STALE_MS) parts.push(`as of ${waitedFor(Date.parse(s.at), nowMs)} ago`)
  return `${parts.join(' · ')} (muster needs)`
}
