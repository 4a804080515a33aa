/** A shared clock that ticks every 30 s, so relative times ("2 min ago") stay true. */
import { useSyncExternalStore } from 'react'

const TICK_MS = 30_000
let now = Date.now()
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | undefined

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (!listeners.size && timer) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

/** Current time in ms, refreshed every 30 s. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now)
}
