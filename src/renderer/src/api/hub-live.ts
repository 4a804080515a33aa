/**
 * Pushed hub events for the app shell: the hub reads (overview, threads, inbox…) are refetched at
 * most every 500 ms however many rows arrive (the overview folds thousands of rows; a busy hub
 * must not make it run every frame). Notifications come from the needs-you queue
 * (`needs.changed`), never from rows. The timeline subscribes to `hub.events` itself to page new rows in.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { PushedEvent } from '../../../shared/api'
import { invalidateHubReads } from './hub-queries'

type HubPushed = Extract<PushedEvent, { name: 'hub.events' | 'hub.inbox' }>

/** Minimum time between two refetches of the hub reads. */
const REFETCH_EVERY_MS = 500

/** Returns the handler of hub events and its cleanup. */
export function hubEventHandler(qc: QueryClient): { handle: (event: HubPushed) => void; dispose: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  let last = 0
  return {
    handle: () => {
      if (timer === undefined) {
        timer = setTimeout(
          () => {
            timer = undefined
            last = Date.now()
            void invalidateHubReads(qc)
            void qc.invalidateQueries({ queryKey: ['invoke.findings'] }) // event bodies carry invocation tags
            // an allowlisted call's hit is counted by the hook's worker just before its record lands in the hub
            void qc.invalidateQueries({ queryKey: ['approvals.rules'] })
          },
          Math.max(0, last + REFETCH_EVERY_MS - Date.now())
        )
      }
    },
    dispose: () => {
      clearTimeout(timer)
    }
  }
}
