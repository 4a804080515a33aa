/**
 * The screens' one clock: `useNow()` ticks every 30 s (relative times like "2 min ago" stay
 * true), `useNow(1000)` every second (the Approvals screen's waiting times). One timer per tick
 * length, running only while something listens; a component re-renders only at its own tick.
 */
import { useSyncExternalStore } from 'react'

/** A ticking time source. */
interface Clock {
  now: number
  listeners: Set<() => void>
  timer: ReturnType<typeof setInterval> | undefined
  subscribe(listener: () => void): () => void
}

const clocks = new Map<number, Clock>()

/** The clock ticking every `tickMs`, made on first use. */
function clockOf(tickMs: number): Clock {
  let c = clocks.get(tickMs)
  if (c) return c
  const clock: Clock = {
    now: Date.now(),
    listeners: new Set(),
    timer: undefined,
    subscribe(listener) {
      clock.listeners.add(listener)
      if (!clock.timer) {
        clock.now = Date.now()
        clock.timer = setInterval(() => {
          clock.now = Date.now()
          for (const l of clock.listeners) l()
        }, tickMs)
      }
      return () => {
        clock.listeners.delete(listener)
        if (!clock.listeners.size && clock.timer) {
          clearInterval(clock.timer)
          clock.timer = undefined
        }
      }
    }
  }
  c = clock
  clocks.set(tickMs, c)
  return c
}

/** Current time in ms, refreshed every `tickMs` (default 30 s) while the component is mounted. */
export function useNow(tickMs = 30_000): number {
  const clock = clockOf(tickMs)
  return useSyncExternalStore(clock.subscribe, () => clock.now)
}
