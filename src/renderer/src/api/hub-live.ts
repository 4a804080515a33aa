/**
 * Pushed hub events for the app shell: the hub reads (threads, inbox, approvals…) are refetched at
 * most every 500 ms however many rows arrive, and the folds of the whole hub (the overview card,
 * the task list) at most every 2 s: on a large hub each of those reads and folds a thousand
 * threads on the server, and a busy hub must not make it run twice a second from every open
 * window. The first rows after a quiet spell refetch everything at once. Notifications come from
 * the needs-you queue (`needs.changed`), never from rows. The timeline subscribes to `hub.events`
 * itself to page new rows in.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { PushedEvent } from '../../../shared/api'
import { HUB_FOLDS, HUB_READS_LIGHT, invalidateHubReads } from './hub-reads'

type HubPushed = Extract<PushedEvent, { name: 'hub.events' | 'hub.inbox' }>

/** Minimum time between two refetches of the hub reads. */
export const REFETCH_EVERY_MS = 500
/** Minimum time between two refetches of the folds of the whole hub. */
export const FOLDS_EVERY_MS = 2_000

/** Runs `run` at once, or `everyMs` after its last run, however often it is poked meanwhile. */
function throttled(everyMs: number, run: () => void): { poke: () => void; dispose: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  let last = -Infinity
  return {
    poke: () => {
      if (timer !== undefined) return
      timer = setTimeout(
        () => {
          timer = undefined
          last = Date.now()
          run()
        },
        Math.max(0, last + everyMs - Date.now())
      )
    },
    dispose: () => clearTimeout(timer)
  }
}

/** Returns the handler of hub events and its cleanup. */
export function hubEventHandler(qc: QueryClient): { handle: (event: HubPushed) => void; dispose: () => void } {
  const reads = throttled(REFETCH_EVERY_MS, () => {
    void invalidateHubReads(qc, HUB_READS_LIGHT)
    void qc.invalidateQueries({ queryKey: ['invoke.findings'] }) // event bodies carry invocation tags
    // an allowlisted call's hit is counted by the hook's worker just before its record lands in the hub
    void qc.invalidateQueries({ queryKey: ['approvals.rules'] })
  })
  const folds = throttled(FOLDS_EVERY_MS, () => void invalidateHubReads(qc, HUB_FOLDS))
  return {
    handle: () => {
      reads.poke()
      folds.poke()
    },
    dispose: () => {
      reads.dispose()
      folds.dispose()
    }
  }
}
