/** Whether a CSS media query matches now, kept in sync as it changes (window size, OS theme). */
import { useCallback, useSyncExternalStore } from 'react'

/** True while `query` (e.g. `(max-width: 640px)`) matches. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const mq = window.matchMedia(query)
      mq.addEventListener('change', onChange)
      return () => mq.removeEventListener('change', onChange)
    },
    [query]
  )
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches)
}
