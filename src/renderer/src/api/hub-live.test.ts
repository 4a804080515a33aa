import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PushedEvent } from '../../../shared/api'
import { FOLDS_EVERY_MS, hubEventHandler, REFETCH_EVERY_MS } from './hub-live'

afterEach(() => vi.useRealTimers())

/** Counts invalidations per method while `hub.events` arrive every 100 ms for `ms`. */
async function refetchesDuring(ms: number): Promise<Map<string, number>> {
  vi.useFakeTimers()
  const qc = new QueryClient()
  const counts = new Map<string, number>()
  const real = qc.invalidateQueries.bind(qc)
  qc.invalidateQueries = ((filters?: { queryKey?: readonly unknown[] }) => {
    const m = String(filters?.queryKey?.[0])
    counts.set(m, (counts.get(m) ?? 0) + 1)
    return real(filters)
  }) as typeof qc.invalidateQueries
  const h = hubEventHandler(qc)
  const event = { name: 'hub.events', payload: { hub: 'h', palace: '/h', events: [] } } as unknown as Extract<
    PushedEvent,
    { name: 'hub.events' }
  >
  for (let t = 0; t < ms; t += 100) {
    h.handle(event)
    await vi.advanceTimersByTimeAsync(100)
  }
  h.dispose()
  return counts
}

describe('hub reads refetched while rows keep arriving', () => {
  it('the folds of the whole hub at most every FOLDS_EVERY_MS, the other reads every REFETCH_EVERY_MS', async () => {
    const ms = 6_000
    const counts = await refetchesDuring(ms)
    for (const fold of ['hub.overview', 'hub.tasks']) expect(counts.get(fold)).toBeLessThanOrEqual(ms / FOLDS_EVERY_MS + 1)
    for (const read of ['hub.inbox', 'hub.thread', 'approvals.list'])
      expect(counts.get(read)).toBeGreaterThanOrEqual(ms / REFETCH_EVERY_MS - 1)
  })

  it('the first rows after a quiet spell refetch everything at once', async () => {
    const counts = await refetchesDuring(100)
    for (const m of ['hub.overview', 'hub.tasks', 'hub.inbox']) expect(counts.get(m)).toBe(1)
  })
})
