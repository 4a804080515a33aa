/**
 * Keys of the Approvals screen (pending tab): j/k or arrows move, a approves, d denies (with the
 * reason typed, if any), n skips to the next request, r focuses the reason field.
 */
import { listStep } from '../../lib/list-keys'
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

/** The shell's `g <letter>` chord window; a key right after `g` belongs to the chord. */
const CHORD_MS = 1200

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/** Installs the keys while `enabled`. */
export function useApprovalKeys(actions: ApprovalKeyActions, enabled: boolean): void {
  const ref = useRef(actions)
  useEffect(() => {
    ref.current = actions
  })
  useEffect(() => {
    if (!enabled) return
    let gAt = 0
    const onKey = (e: KeyboardEvent): void => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented || isTyping(e.target)) return
      const ui = useUiStore.getState()
      if (ui.paletteOpen || ui.projectDialog || document.querySelector('dialog[open]')) return
      if (e.key === 'g') {
        gAt = Date.now()
        return
      }
      if (gAt && Date.now() - gAt < CHORD_MS) {
        gAt = 0
        return
      }
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
