/** Tracks an element's width with a ResizeObserver, via a callback ref (works for late mounts). */
import { useCallback, useEffect, useRef, useState } from 'react'

/** Returns `[ref, width]`: attach `ref` to an element; `width` is 0 until it is laid out. */
export function useElementWidth(): [(el: HTMLElement | null) => void, number] {
  const [width, setWidth] = useState(0)
  const observer = useRef<ResizeObserver | null>(null)
  const ref = useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect()
    observer.current = null
    if (!el) return
    setWidth(el.clientWidth)
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width
      if (w !== undefined) setWidth(Math.round(w))
    })
    ro.observe(el)
    observer.current = ro
  }, [])
  useEffect(() => () => observer.current?.disconnect(), [])
  return [ref, width]
}
