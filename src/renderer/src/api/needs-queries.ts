/**
 * react-query binding of the needs-you queue: the one source of the sidebar badges, the window
 * title and the Overview's "needs you" list. A `needs.changed` push refetches it (and the reads
 * that show parts of it) at once, so they all change together.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query'
import type { MethodOutput } from '../../../shared/api'
import { useAfterFirstPaint } from '../lib/first-paint'
import { useUiStore } from '../stores/ui-store'
import { client } from './client'
import { queryKey } from './queries'

/** Re-read without a push now and then: a watching service pushes every change, this is a safety net. */
const REFRESH_MS = 60_000

/**
 * The whole queue, longest wait first; asked for once the first screen has painted
 * (lib/first-paint.ts), or at once when it is the screen (the phone's first).
 */
export function useNeeds() {
  const painted = useAfterFirstPaint()
  const onScreen = useUiStore((s) => s.screen === 'needs')
  return useQuery<MethodOutput<'needs.list'>, Error>({
    queryKey: queryKey('needs.list', {}),
    queryFn: () => client.call('needs.list', {}),
    refetchInterval: REFRESH_MS,
    enabled: painted || onScreen
  })
}

/** Everything that shows a part of the queue, refetched when it changed. */
export function invalidateNeeds(qc: QueryClient): Promise<void> {
  return Promise.all([
    qc.invalidateQueries({ queryKey: ['needs.list'] }),
    qc.invalidateQueries({ queryKey: ['hub.overview'] }),
    qc.invalidateQueries({ queryKey: ['approvals.list'] })
  ]).then(() => undefined)
}
