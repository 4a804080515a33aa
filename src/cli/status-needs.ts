/**
 * The needs-you line `muster status` ends with, read from the summary file the last whole-queue
 * computation wrote (`shared/needs-summary.ts`): one small file read, never a hub, so status stays
 * within its budget. A stale summary is printed with its age and refreshed in the background by a
 * detached `muster needs --refresh-summary` (at most one per minute), for the next call.
 * Light on purpose: the status entry loads this.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { NEEDS_SUMMARY_FILE, NEEDS_SUMMARY_STALE_MS, needsSummaryLine, parseNeedsSummary, type NeedsSummary } from '../shared/needs-summary'
import type { CliIo } from './output'

/** Marker of the last background refresh started (its mtime). */
const REFRESH_MARK = 'needs-summary.refresh'

/** Starts the background refresh of the summary of `home`. */
export type RefreshStarter = (home: string) => void

/** Prints the needs line for `home` when a hub was read into its summary; starts a refresh when the summary is stale. */
export function printNeedsLine(io: CliIo, home: string, refresh: RefreshStarter = spawnRefresh, now = Date.now()): void {
  const summary = readNeedsSummary(home, refresh, now)
  const line = summary && needsSummaryLine(summary, now)
  if (line) io.stdout(`\n${line}\n`)
}

/**
 * The summary of `home` (null when no hub was ever read into one); starts a background refresh
 * when it is stale, so the next call is fresh.
 */
export function readNeedsSummary(home: string, refresh: RefreshStarter = spawnRefresh, now = Date.now()): NeedsSummary | null {
  let text: string
  try {
    text = readFileSync(join(home, NEEDS_SUMMARY_FILE), 'latin1')
  } catch {
    return null // no hub was ever read here (hubs add and demo write the first summary)
  }
  const summary = parseNeedsSummary(text)
  if (!summary || summary.hubs === 0) return null
  if (now - Date.parse(summary.at) >= NEEDS_SUMMARY_STALE_MS && refreshDue(home, now)) {
    try {
      refresh(home)
    } catch {
      /* the next call tries again */
    }
  }
  return summary
}

/** True (and the marker renewed) when no refresh was started in the last minute. */
function refreshDue(home: string, now: number): boolean {
  const mark = join(home, REFRESH_MARK)
  try {
    if (now - statSync(mark).mtimeMs < NEEDS_SUMMARY_STALE_MS) return false
  } catch {
    /* never started */
  }
  try {
    writeFileSync(mark, '')
    return true
  } catch {
    return false
  }
}

/**
 * A detached `muster needs --refresh-summary` by the running `muster` binary (none when this
 * process is not one, e.g. a test runner, or when MUSTER_NO_BACKGROUND is set).
 */
export function spawnRefresh(home: string): void {
  const bin = process.argv[1]
  if (!bin || !basename(bin).startsWith('muster') || process.env.MUSTER_NO_BACKGROUND) return
  // loaded only when a refresh is due (child_process pulls net and streams: not on every status call)
  const { spawn } = process.getBuiltinModule('node:child_process')
  const child = spawn(process.execPath, [bin, '--home', home, 'needs', '--refresh-summary'], { detached: true, stdio: 'ignore' })
  // a refresh that cannot start (node replaced or removed meanwhile) is skipped: the next status call tries again
  child.on('error', () => {})
  child.unref()
}
