/**
 * Which react-query reads change when a hub gets a new row, and their refetch. Apart from the
 * typed client, so the live-event handlers (and their tests) need no transport.
 */
import type { QueryClient } from '@tanstack/react-query'

/** Read methods that change when a hub gets a new row (`hub.list` here = ack chains; timeline pages live outside react-query). */
export const HUB_READS = [
  'hub.overview',
  'hub.thread',
  'hub.tasks',
  'hub.presence',
  'hub.inbox',
  'hub.get',
  'hub.list',
  'approvals.list'
] as const

/** The hub reads that fold the whole hub (the overview card, the task list): the costly ones to refetch. */
export const HUB_FOLDS: readonly string[] = ['hub.overview', 'hub.tasks']

/** Refetches the hub reads (by default every one: after a write, or pushed rows). */
export function invalidateHubReads(qc: QueryClient, which: readonly string[] = HUB_READS): Promise<void> {
  return Promise.all(which.map((m) => qc.invalidateQueries({ queryKey: [m] }))).then(() => undefined)
}

/** The hub reads other than the folds. */
export const HUB_READS_LIGHT: readonly string[] = HUB_READS.filter((m) => !HUB_FOLDS.includes(m))
