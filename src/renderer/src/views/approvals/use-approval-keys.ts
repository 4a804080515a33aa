/**
 * Keys of the Approvals screen (pending tab): j/k or arrows move, a approves, d denies (with the
 * reason typed, if any), n skips to the next request, r focuses the reason field.
 */
import { chordTracker, isTyping, listStep } from '../../lib/list-keys'
import { useEffect, useRef } from 'react'
import { useUiStore } from '../../stores/ui-store'

/** What the keys do; read through a ref so the listener is installed once. */
export interface ApprovalKeyActions {
  move: (delta: number) => void
  approve: () => void
  deny: () => void
  next: () => void
  reason: () => void
}

/** Installs the keys while `enabled`. */
export function useApprovalKeys(actions: ApprovalKeyActions, enabled: boolean): void {
  const ref = useRef(actions)
  useEffect(() => {
    ref.current = actions
  })
  useEffect(() => {
    if (!enabled) return
    const inChord = chordTracker() // the shell's `g <letter>` chords use letters too
    const onKey = (e: KeyboardEvent): void => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented || isTyping(e.target)) return
      const ui = useUiStore.getState()
      if (ui.paletteOpen || ui.projectDialog || document.querySelector('dialog[open]')) return
      if (inChord(e.key)) return
      const a = ref.current
      const step = listStep(e.key)
      const map: Record<string, () => void> = {
        ...(step ? { [e.key]: () => a.move(step) } : {}),
        a: a.approve,
        d: a.deny,
        n: a.next,
        r: a.reason
      }
      const fn = map[e.key]
      if (!fn) return
      e.preventDefault()
      fn()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enabled])
}
