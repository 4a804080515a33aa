/**
 * Keyboard navigation of a list, once for every screen: j or Down moves one down, k or Up one up,
 * Home and End jump to the ends (the lists that select rows: patches, notes, directives,
 * timeline, approvals).
 * Also what every list key handler leaves alone: typing, and the shell's `g <letter>` chords.
 */

/** How far a key moves the selection: 1 (j, Down), -1 (k, Up), 0 for any other key. */
export function listStep(key: string): -1 | 0 | 1 {
  return key === 'ArrowDown' || key === 'j' ? 1 : key === 'ArrowUp' || key === 'k' ? -1 : 0
}

/** The row `key` selects in a list of `length` rows with `index` selected (-1: none); null when the key is not a list key. */
export function listKeyTarget(key: string, index: number, length: number): number | null {
  if (length === 0) return null
  const step = listStep(key)
  const next = step ? Math.max(index, -1) + step : key === 'Home' ? 0 : key === 'End' ? length - 1 : null
  return next === null ? null : Math.min(length - 1, Math.max(0, next))
}

/** How long after `g` the next key completes one of the shell's `g <letter>` screen chords. */
export const CHORD_MS = 1200

/**
 * For a list's own key handler: which keys belong to the shell's `g <letter>` chord, not to the
 * list (the `g` itself, and the key right after it within CHORD_MS). One tracker per handler.
 */
export function chordTracker(now: () => number = Date.now): (key: string) => boolean {
  let gAt = 0
  return (key) => {
    if (key === 'g') {
      gAt = now()
      return true
    }
    if (gAt && now() - gAt < CHORD_MS) {
      gAt = 0
      return true
    }
    return false
  }
}

/** True when a key goes to something the operator types in (a field, a text area, a select, editable text), not to a list. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}
