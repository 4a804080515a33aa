/** Global keys: Ctrl/Cmd+K opens the palette, `g <letter>` and `1..7` switch screens. */
import { useEffect } from 'react'
import { CHORD_MS as CHORD_TIMEOUT_MS, isTyping } from '../lib/list-keys'
import { SCREENS } from '../lib/screens'
import { useUiStore } from '../stores/ui-store'

/** Installs the global keyboard shortcuts for the lifetime of the shell. */
export function useKeyboardShortcuts(): void {
  useEffect(() => {
    let chordAt = 0
    const onKey = (e: KeyboardEvent): void => {
      const ui = useUiStore.getState()
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        ui.setPaletteOpen(!ui.paletteOpen)
        return
      }
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented) return
      if (ui.paletteOpen || ui.projectDialog || isTyping(e.target)) return
      const key = e.key.toLowerCase()
      if (chordAt && Date.now() - chordAt < CHORD_TIMEOUT_MS) {
        chordAt = 0
        const screen = SCREENS.find((s) => s.chord === key)
        if (screen) {
          e.preventDefault()
          ui.navigate(screen.id)
        }
        return
      }
      if (key === 'g') {
        chordAt = Date.now()
        return
      }
      const digit = SCREENS.find((s) => String(s.digit) === e.key)
      if (digit) {
        e.preventDefault()
        ui.navigate(digit.id)
      }
    }
    const onHash = (): void => useUiStore.getState().syncFromHash()
    window.addEventListener('keydown', onKey)
    window.addEventListener('hashchange', onHash)
    // the address may have changed between the first render and this listener (a link opened
    // right after load): read it once now, or that change would be missed until the next one
    onHash()
    return () => {
      window.removeEventListener('keydown', onKey)
      window.removeEventListener('hashchange', onHash)
    }
  }, [])
}
