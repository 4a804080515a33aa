/**
 * Keys of the Directives screen: j/k or arrows move, Enter opens the role file, p picks up (then
 * Enter confirms, Esc cancels), n opens the send dialog, / focuses the text filter.
 */
import { chordTracker, isTyping, listStep } from '../../lib/list-keys'
import { useEffect, useRef } from 'react'
import { useUiStore } from '../../stores/ui-store'

/** What the keys do; read through a ref so the listener is installed once. */
export interface DirectiveKeyActions {
  move: (delta: number) => void
  open: () => void
  pickup: () => void
  confirm: () => void
  cancel: () => boolean
  send: () => void
  search: () => void
  confirming: boolean
}

/** Installs the screen's keys while it is mounted. */
export function useDirectiveKeys(actions: DirectiveKeyActions): void {
  const ref = useRef(actions)
  useEffect(() => {
    ref.current = actions
  })
  useEffect(() => {
    const inChord = chordTracker() // the shell's `g <letter>` chords use letters too
    const onKey = (e: KeyboardEvent): void => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented) return
      const ui = useUiStore.getState()
      if (ui.paletteOpen || ui.projectDialog || document.querySelector('dialog[open]')) return
      const a = ref.current
      if (isTyping(e.target)) return
      const key = e.key
      // Enter on a focused button or link keeps its native meaning.
      if (key === 'Enter' && e.target instanceof HTMLElement && e.target.closest('button, a, summary')) return
      if (inChord(key)) return
      const handled = ((): boolean => {
        const step = listStep(key)
        if (step) {
          a.move(step)
          return true
        }
        switch (key) {
          case 'Enter':
            if (a.confirming) a.confirm()
            else a.open()
            return true
          case 'Escape':
            return a.cancel()
          case 'p':
            a.pickup()
            return true
          case 'n':
            a.send()
            return true
          case '/':
            a.search()
            return true
          default:
            return false
        }
      })()
      if (handled) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
