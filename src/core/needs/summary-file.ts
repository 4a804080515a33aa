/**
 * Writes the needs-you summary file (`shared/needs-summary.ts`) after each whole-queue computation,
 * atomically (temp file + rename), so a concurrent `muster status` reads the old or the new one.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NeedsList } from '../../shared/contract/needs-types'
import { NEEDS_SUMMARY_FILE, type NeedsSummary } from '../../shared/needs-summary'

/** The summary of a whole queue. */
export function summaryOf(list: NeedsList): NeedsSummary {
  const hubs = list.sources.filter((s) => s.hub !== null)
  const o = list.oldest
  return {
    at: list.at,
    hubs: hubs.length,
    count: list.count,
    oldest: o ? { kind: o.kind, title: o.title, since: o.since, link: o.link } : null,
    unread: list.unread,
    failed: hubs.filter((s) => !s.ok).length
  }
}

/** Writes the summary of `list` into Muster's home `home`; a failure is ignored (the file is only a hint for `muster status`). */
export function writeNeedsSummary(home: string, list: NeedsList): void {
  const file = join(home, NEEDS_SUMMARY_FILE)
  const tmp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, JSON.stringify(summaryOf(list)) + '\n')
    renameSync(tmp, file)
  } catch {
    // a read-only home or a full disk: status just has no needs line, and no half-written temp stays
    try {
      rmSync(tmp, { force: true })
    } catch {
      /* a read-only home made none */
    }
  }
}
