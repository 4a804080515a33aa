/**
 * The first screen's paint gate. Reads the first screen does not show at once (the needs-you
 * queue, the directive index, lint) wait until it has painted: started with it, they compete with
 * the read it does show (fleet.status) on the server and re-render it before its first frame.
 * The Overview opens the gate once its cards are committed; any other screen, and a fleet read
 * that never answers, open it after the app's first frame or `FALLBACK_MS`.
 */
import { useSyncExternalStore } from 'react'

/** Opens the gate anyway this long after the app mounted (a fleet read that hangs). */
export const FALLBACK_MS = 3_000

let painted = false
let scheduled = false
const listeners = new Set<() => void>()

/** Opens the gate after the next frame is painted (a task queued from requestAnimationFrame runs after that frame's paint). */
export function openAfterNextPaint(): void {
  if (painted || scheduled) return
  scheduled = true
  requestAnimationFrame(() =>
    setTimeout(() => {
      painted = true
      for (const l of listeners) l()
    }, 0)
  )
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** True once the first screen has painted; components re-render when it opens. */
export function useAfterFirstPaint(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => painted,
    () => painted
  )
}
