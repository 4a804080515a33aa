/**
 * Timeline keys: j/k move, Enter opens the detail, t the thread, a ack, r reply, n new task,
 * `/` focuses the body-text filter, Esc closes the open form, then the pane.
 */
import { chordTracker, isTyping, listStep } from '../../lib/list-keys'
import { useEffect, useRef } from 'react'
import { useUiStore } from '../../stores/ui-store'
import { useTimelineStore } from '../../stores/timeline-store'

/** What the keys act on. */
export interface TimelineKeyTarget {
  /** Moves the selection by `delta` rows; returns nothing (the screen scrolls). */
  move: (delta: number) => void
  /** Correlation id of the selected event, if any. */
  selectedThread: () => string | null
  focusText: () => void
}

/** Installs the keys while the Timeline is mounted. */
export function useTimelineKeys(target: TimelineKeyTarget): void {
  const ref = useRef(target)
  useEffect(() => {
    ref.current = target
  }, [target])

  useEffect(() => {
    const inChord = chordTracker() // the shell's `g <letter>` chords use letters too
    const onKey = (e: KeyboardEvent): void => {
      if (e.metaKey || e.ctrlKey || e.altKey) return
      const ui = useUiStore.getState()
      if (ui.paletteOpen || ui.projectDialog) return
      const tl = useTimelineStore.getState()
      if (e.key === 'Escape') {
        if (tl.action || tl.pane) {
          e.preventDefault()
          if (isTyping(e.target)) (e.target as HTMLElement).blur()
          tl.closePane()
        }
        return
      }
      if (isTyping(e.target) || e.defaultPrevented) return
      if (inChord(e.key)) return
      const t = ref.current
      const step = listStep(e.key)
      if (step) {
        e.preventDefault()
        t.move(step)
        return
      }
      switch (e.key) {
        case 'Enter':
          if (e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement) break
          if (tl.selectedId) {
            e.preventDefault()
            tl.openDetail(tl.selectedId)
          }
          break
        case 't': {
          const thread = t.selectedThread()
          if (thread) {
            e.preventDefault()
            tl.openThread(thread)
          }
          break
        }
        case 'a':
        case 'r':
          if (tl.selectedId) {
            e.preventDefault()
            tl.openDetail(tl.selectedId)
            tl.setAction(e.key === 'a' ? 'ack' : 'reply')
          }
          break
        case 'n':
          e.preventDefault()
          tl.setAction('task')
          break
        case '/':
          e.preventDefault()
          t.focusText()
          break
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
