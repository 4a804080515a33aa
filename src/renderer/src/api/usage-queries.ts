/**
 * react-query bindings of usage and budgets: `usage.summary` over a window (today, the last 7 or
 * 30 days, or all of it) grouped by one key, and `budget.list`. A watching service pushes
 * `usage.changed` when new usage was read or a budget changed (use-live-events.ts refetches both).
 * A window starts at local midnight, so its query key holds all day long.
 */
import { useQuery } from '@tanstack/react-query'
import type { MethodInput, MethodOutput, UsageGroup } from '../../../shared/api'
import { windowStart } from '../../../shared/usage/format'
import { useNow } from '../hooks/use-now'
import { useAfterFirstPaint } from '../lib/first-paint'
import { client } from './client'
import { queryKey } from './queries'

/** A window of usage: today, the last 7 or 30 days (today included), or everything recorded. */
export type UsageWindow = 'today' | '7d' | '30d' | 'all'

/** The `usage.summary` input of a window and grouping, in this browser's time zone. */
export function usageInput(window: UsageWindow, by: UsageGroup, now: number): MethodInput<'usage.summary'> {
  const since = window === 'all' ? null : windowStart(window, new Date(now))
  return { by, ...(since ? { since: since.toISOString() } : {}), tz_offset_min: new Date(now).getTimezoneOffset() }
}

/** Usage over a window grouped `by` (after the first paint: the Overview's cards come first). */
export function useUsage(window: UsageWindow, by: UsageGroup) {
  const painted = useAfterFirstPaint()
  // the minute clock moves the window on at midnight; the key changes only then
  const input = usageInput(window, by, useNow(60_000))
  return useQuery<MethodOutput<'usage.summary'>, Error>({
    queryKey: queryKey('usage.summary', input),
    queryFn: () => client.call('usage.summary', input),
    enabled: painted
  })
}

/** Every budget with what it counts now. */
export function useBudgets() {
  const painted = useAfterFirstPaint()
  return useQuery<MethodOutput<'budget.list'>, Error>({
    queryKey: queryKey('budget.list', {}),
    queryFn: () => client.call('budget.list', {}),
    enabled: painted
  })
}
